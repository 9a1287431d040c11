import type { Project, ProjectInit } from '@keel/protocol/runtime';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import type { ApiError } from '../../api/errors.ts';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import { ErrorNote, Loading } from '../../components/status.tsx';
import { keelWeb } from '../api/keel-web.ts';
import { timeAgo } from '../format.ts';
import type { RunTarget } from '../run-target.ts';
import { ProjectTasks } from './project-tasks.tsx';

// The same form "+ New project" opens (already loaded then), in its edit mode.
const ProjectForm = lazy(() => import('./project-form.tsx'));

/**
 * One project (`/api/projects/{id}`): what it is, where, its session; start a run in it, write its guide
 * (`POST …/init`, whose run opens), edit it in place (`PUT`), delete it; and its tasks, each a branch of
 * its repository with a session of its own. Loaded on first use.
 */
export default function ProjectView({
  projectId,
  onOpenRun,
  onClosed,
  onStartIn,
}: {
  projectId: string;
  onOpenRun: (runId: string) => void;
  onClosed: () => void;
  onStartIn: (target: RunTarget) => void;
}) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const project = useQuery<Project, ApiError>({
    queryKey: ['project', projectId],
    queryFn: () => keelWeb.projects.get(projectId),
  });
  const init = useMutation<ProjectInit, ApiError, void>({
    mutationFn: () => keelWeb.projects.init(projectId),
    onSuccess: (started) => {
      void queryClient.invalidateQueries({ queryKey: ['runs'] });
      onOpenRun(started.run_id);
    },
  });
  const remove = useMutation<unknown, ApiError, void>({
    mutationFn: () => keelWeb.projects.remove(projectId),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['projects'] });
      onClosed();
      // Gone, not stale: Back to its address must not show the cached project while it is read again.
      queryClient.removeQueries({ queryKey: ['project', projectId], exact: true });
      queryClient.removeQueries({ queryKey: ['tasks', projectId], exact: true });
    },
  });
  if (project.isPending) return <Loading what="project" />;
  if (!project.data) {
    return (
      <div className="card run-missing">
        <h2>This project cannot be shown</h2>
        <ErrorNote error={project.error} />
        <button type="button" className="button-secondary" onClick={onClosed}>
          Back
        </button>
      </div>
    );
  }
  const p = project.data;
  return (
    <article className="project-view" aria-label={`Project ${p.name}`} data-project-id={p.id}>
      {editing ? (
        <Suspense fallback={<Loading what="form" />}>
          <ProjectForm project={p} onSaved={() => setEditing(false)} onCancel={() => setEditing(false)} />
        </Suspense>
      ) : (
        <header className="run-head">
          <h1 className="run-title">{p.name}</h1>
          <div className="run-facts">
            <code className="hint">{p.id}</code>
            <code className="hint run-workdir" title="Directory">
              {p.workdir}
            </code>
            {p.session_id ? (
              <span title="The project's session: runs started here continue it">
                session <code className="hint">{p.session_id}</code>
              </span>
            ) : null}
            <span className="hint">created {timeAgo(p.created_at)}</span>
          </div>
          {p.description ? <p className="project-description">{p.description}</p> : null}
          {p.code_paths.length ? (
            <p className="hint">
              Also reads and writes: <code>{p.code_paths.join(', ')}</code>
            </p>
          ) : null}
        </header>
      )}
      <div className="run-controls" role="toolbar" aria-label="Project actions">
        <button
          type="button"
          className="button-primary"
          onClick={() =>
            onStartIn({
              workdir: p.workdir,
              ...(p.session_id ? { session_id: p.session_id } : {}),
              label: `project ${p.name}`,
            })
          }
        >
          Start a run here
        </button>
        <button
          type="button"
          className="button-secondary"
          disabled={init.isPending}
          title="An agent run analyses the project and creates or updates AGENTS.md"
          onClick={() => init.mutate()}
        >
          {init.isPending ? 'Starting…' : 'Write AGENTS.md (init)'}
        </button>
        <button
          type="button"
          className="button-secondary"
          aria-expanded={editing}
          disabled={editing}
          onClick={() => setEditing(true)}
        >
          Edit project
        </button>
        <ConfirmButton
          label="Delete project"
          question="Delete this project and its tasks' records? Its directory, sessions, runs and branches stay."
          pending={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      </div>
      <ErrorNote error={init.error} />
      <ErrorNote error={remove.error} />
      <ProjectTasks project={p} onStartIn={onStartIn} />
    </article>
  );
}
