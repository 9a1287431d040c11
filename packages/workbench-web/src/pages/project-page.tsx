import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../api/client.ts';
import { scrub } from '../api/error-words.ts';
import type { ApiError } from '../api/errors.ts';
import {
  type Knowledge,
  type KnowledgeLayer,
  knowledgeLayers,
  type Project,
  type Task,
} from '../api/types.ts';
import { Markdown } from '../components/lazy.tsx';
import { isNotFound, NotFound } from '../components/not-found.tsx';
import { SessionView } from '../components/session-view.tsx';
import { Badge, Empty, ErrorNote, Loading } from '../components/status.tsx';
import { TaskList } from '../components/task-list.tsx';
import { socket } from '../socket.ts';
import { ProjectChecks } from './project/project-checks.tsx';
import { ProjectSettings } from './project/project-settings.tsx';

const layerNames: Record<KnowledgeLayer, string> = {
  structure: 'Structure',
  business_flow: 'Business flow',
  modules: 'Modules',
  index: 'Index',
};

function generating(knowledge: Knowledge | undefined): boolean {
  if (!knowledge) return false;
  return (
    knowledge.status === 'INITIALIZING' ||
    knowledge.layers.some((layer) => layer.status === 'pending' || layer.status === 'running')
  );
}

export default function ProjectPage() {
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  const project = useQuery<Project, ApiError>({
    queryKey: ['project', id],
    queryFn: () => api.projects.get(id),
  });
  const knowledge = useQuery<Knowledge, ApiError>({
    queryKey: ['knowledge', id],
    queryFn: () => api.projects.knowledge(id),
  });
  // Each change of the project or a knowledge layer comes over `project:{id}`: read them again then (no
  // polling). The socket resubscribes after a drop, and the snapshot it sends then covers what was missed.
  useEffect(
    () =>
      socket.subscribeProject(id, {
        onProject: () => {
          void queryClient.invalidateQueries({ queryKey: ['knowledge', id] });
          void queryClient.invalidateQueries({ queryKey: ['project', id] });
        },
      }),
    [id, queryClient],
  );
  const tasks = useQuery<Task[], ApiError>({
    queryKey: ['tasks', id],
    queryFn: () => api.tasks.list({ projectId: id }),
  });
  const [selected, setSelected] = useState<{ repository: string; layer: KnowledgeLayer } | null>(null);
  const [watching, setWatching] = useState<string | null>(null);

  const init = useMutation<unknown, ApiError, { repository: string; layer: KnowledgeLayer } | undefined>({
    mutationFn: (one) => api.projects.init(id, one),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['knowledge', id] });
      void queryClient.invalidateQueries({ queryKey: ['project', id] });
      void queryClient.invalidateQueries({ queryKey: ['projects'] });
    },
  });

  // The project's status follows its knowledge: refresh it when generation ends.
  const status = knowledge.data?.status;
  useEffect(() => {
    if (status) void queryClient.invalidateQueries({ queryKey: ['project', id] });
  }, [status, id, queryClient]);

  if (project.isPending) return <Loading what="project" />;
  if (project.error) {
    if (isNotFound(project.error)) {
      return <NotFound what="Project" id={id} back={{ to: '/projects', label: 'All projects' }} />;
    }
    return <ErrorNote error={project.error} />;
  }
  const data = project.data;
  const busy = generating(knowledge.data) || init.isPending;
  const layers = knowledge.data?.layers ?? [];
  const shown = selected
    ? layers.find((layer) => layer.repository === selected.repository && layer.layer === selected.layer)
    : undefined;

  return (
    <div className="page">
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link to="/projects">Projects</Link> / <span>{data.name}</span>
      </nav>
      <div className="page-head">
        <h1>{data.name}</h1>
        <Badge value={data.status} />
        <div className="spacer" />
        <Link className="button button-secondary" to={`/tasks/new?project=${data.id}`}>
          New task
        </Link>
        <button
          type="button"
          className="button-primary"
          disabled={busy}
          onClick={() => init.mutate(undefined)}
          data-testid="generate-knowledge"
        >
          {busy
            ? 'Generating…'
            : data.status === 'READY'
              ? 'Regenerate knowledge'
              : data.status === 'FAILED'
                ? 'Retry all layers'
                : 'Generate knowledge'}
        </button>
      </div>
      {data.description ? <p className="lede">{data.description}</p> : null}
      <ErrorNote error={init.error} />
      {data.error ? <div className="error-note">{scrub(data.error)}</div> : null}

      <section className="card">
        <h2>Knowledge</h2>
        <p className="hint">
          Four layers per repository, generated concurrently. Every task reads them (project.md and the
          constitution).
        </p>
        {knowledge.isPending ? <Loading what="knowledge" /> : null}
        <ErrorNote error={knowledge.error} />
        <table className="knowledge-table">
          <thead>
            <tr>
              <th scope="col">Repository</th>
              {knowledgeLayers.map((layer) => (
                <th key={layer} scope="col">
                  {layerNames[layer]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.repositories.map((repository) => (
              <tr key={repository.name}>
                <th scope="row">
                  <div>{repository.name}</div>
                  <div className="hint">
                    {repository.type}
                    {repository.provider ? ` · ${repository.provider}` : ''} · <code>{repository.path}</code>
                  </div>
                </th>
                {knowledgeLayers.map((layer) => {
                  const record = layers.find(
                    (each) => each.repository === repository.name && each.layer === layer,
                  );
                  if (!record) {
                    return (
                      <td key={layer}>
                        <span className="hint">not generated</span>
                      </td>
                    );
                  }
                  const isSelected = selected?.repository === repository.name && selected.layer === layer;
                  return (
                    <td key={layer} className={isSelected ? 'selected' : undefined}>
                      <Badge value={record.status} title={record.error ?? undefined} />
                      <div className="cell-actions">
                        {record.status === 'done' ? (
                          <button
                            type="button"
                            className="button-link"
                            onClick={() => setSelected({ repository: repository.name, layer })}
                          >
                            Read
                          </button>
                        ) : null}
                        {record.status === 'failed' ? (
                          <button
                            type="button"
                            className="button-link"
                            disabled={init.isPending || generating(knowledge.data)}
                            onClick={() => init.mutate({ repository: repository.name, layer })}
                          >
                            Retry
                          </button>
                        ) : null}
                        {record.session_id ? (
                          <button
                            type="button"
                            className="button-link"
                            onClick={() =>
                              setWatching(watching === record.session_id ? null : record.session_id)
                            }
                          >
                            {watching === record.session_id ? 'Hide log' : 'Log'}
                          </button>
                        ) : null}
                      </div>
                      {record.status === 'failed' && record.error ? (
                        <div className="error-text">{record.error}</div>
                      ) : null}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
        {watching ? <SessionView sessionId={watching} title="Knowledge session" /> : null}
      </section>

      {shown?.content ? (
        <section className="card">
          <div className="page-head">
            <h2>
              {shown.repository} · {layerNames[shown.layer]}
            </h2>
            <div className="spacer" />
            <button type="button" className="button-quiet" onClick={() => setSelected(null)}>
              Close
            </button>
          </div>
          <Markdown>{shown.content}</Markdown>
        </section>
      ) : null}

      {knowledge.data?.project_md || knowledge.data?.constitution_md ? (
        <div className="two-columns">
          {knowledge.data.project_md ? (
            <details className="card">
              <summary>project.md</summary>
              <Markdown>{knowledge.data.project_md}</Markdown>
            </details>
          ) : null}
          {knowledge.data.constitution_md ? (
            <details className="card">
              <summary>constitution.md</summary>
              <Markdown>{knowledge.data.constitution_md}</Markdown>
            </details>
          ) : null}
        </div>
      ) : null}

      <section>
        <h2>Tasks</h2>
        {tasks.isPending ? <Loading what="tasks" /> : null}
        <ErrorNote error={tasks.error} />
        {tasks.data?.length === 0 ? (
          <Empty>
            No tasks on this project yet. <Link to={`/tasks/new?project=${data.id}`}>Create one</Link>
            {data.status !== 'READY' ? ' once its knowledge is generated.' : '.'}
          </Empty>
        ) : null}
        <TaskList tasks={tasks.data ?? []} />
      </section>

      <ProjectSettings project={data} />
      <ProjectChecks project={data} />
    </div>
  );
}
