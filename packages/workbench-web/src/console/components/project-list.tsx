import type { Project } from '@keel/protocol/runtime';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import type { ApiError } from '../../api/errors.ts';
import { Empty, ErrorNote, Loading } from '../../components/status.tsx';
import { keelWeb } from '../api/keel-web.ts';

// The form (and its directory picker) loads when "New project" is pressed: the first load stays the shell.
const ProjectForm = lazy(() => import('./project-form.tsx'));

/** `GET /api/projects`: the server's projects, newest first; each opens in the main pane, where its tasks are. */
export function ProjectList({
  selected,
  defaultWorkdir,
  onOpen,
}: {
  selected: string | null;
  defaultWorkdir?: string;
  onOpen: (projectId: string) => void;
}) {
  const [creating, setCreating] = useState(false);
  const projects = useQuery<{ projects: Project[] }, ApiError>({
    queryKey: ['projects'],
    queryFn: () => keelWeb.projects.list({ limit: 100 }),
    refetchInterval: 10_000,
  });
  const list = projects.data?.projects ?? [];
  return (
    <section className="side-section" aria-label="Projects">
      <div className="side-head">
        <h2>Projects</h2>
        <button
          type="button"
          className="button-quiet"
          aria-expanded={creating}
          onClick={() => setCreating((open) => !open)}
        >
          {creating ? 'Close' : '+ New project'}
        </button>
      </div>
      {creating ? (
        <Suspense fallback={<Loading what="form" />}>
          <ProjectForm
            defaultWorkdir={defaultWorkdir}
            onSaved={(project) => {
              setCreating(false);
              onOpen(project.id);
            }}
          />
        </Suspense>
      ) : null}
      {projects.isPending ? <Loading what="projects" /> : null}
      {projects.error?.status === 401 ? null : <ErrorNote error={projects.error} />}
      {projects.data && list.length === 0 && !creating ? (
        <Empty>No projects yet: a project is a directory with its own session, tasks and guide.</Empty>
      ) : null}
      <ul className="run-list project-list">
        {list.map((project) => (
          <li
            key={project.id}
            data-project-id={project.id}
            className={project.id === selected ? 'selected' : ''}
          >
            <a
              href={`?project=${encodeURIComponent(project.id)}`}
              aria-current={project.id === selected ? 'page' : undefined}
              onClick={(event) => {
                if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                event.preventDefault();
                onOpen(project.id);
              }}
            >
              <span className="run-list-prompt project-name">{project.name}</span>
              <span className="hint run-list-meta" title={project.workdir}>
                {project.workdir}
              </span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
