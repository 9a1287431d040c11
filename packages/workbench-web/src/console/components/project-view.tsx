import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { ApiError } from '../../api/errors.ts';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import { Empty, ErrorNote, invalidBy, Loading } from '../../components/status.tsx';
import { runtimeApi } from '../api/runtime-client.ts';
import type { Project, ProjectInit, Task } from '../api/runtime-types.ts';
import { fieldOfError } from '../field-error.ts';
import { timeAgo } from '../format.ts';
import type { RunTarget } from '../run-target.ts';

/**
 * One project (`/api/projects/{id}`): what it is, where, its session; start a run in it, write its guide
 * (`POST …/init`, whose run opens), delete it; and its tasks, each a branch of its repository with a
 * session of its own, created and deleted here. Loaded on first use.
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
  const project = useQuery<Project, ApiError>({
    queryKey: ['project', projectId],
    queryFn: () => runtimeApi.projects.get(projectId),
  });
  const init = useMutation<ProjectInit, ApiError, void>({
    mutationFn: () => runtimeApi.projects.init(projectId),
    onSuccess: (started) => {
      void queryClient.invalidateQueries({ queryKey: ['runs'] });
      onOpenRun(started.run_id);
    },
  });
  const remove = useMutation<unknown, ApiError, void>({
    mutationFn: () => runtimeApi.projects.remove(projectId),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['projects'] });
      onClosed();
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
        <ConfirmButton
          label="Delete project"
          question="Delete this project and its tasks' records? Its directory, sessions, runs and branches stay."
          pending={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      </div>
      <ErrorNote error={init.error} />
      <ErrorNote error={remove.error} />
      <Tasks project={p} onStartIn={onStartIn} />
    </article>
  );
}

const taskFields = ['name', 'branch_name'] as const;

/** `GET`/`POST /api/projects/{id}/tasks` and `DELETE /api/tasks/{id}`: the project's tasks. */
function Tasks({ project, onStartIn }: { project: Project; onStartIn: (target: RunTarget) => void }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [name, setName] = useState('');
  const [branch, setBranch] = useState('');
  const tasks = useQuery<{ tasks: Task[] }, ApiError>({
    queryKey: ['tasks', project.id],
    queryFn: () => runtimeApi.projects.tasks(project.id, { limit: 100 }),
  });
  const create = useMutation<Task, ApiError, { name: string; branch_name: string }>({
    mutationFn: (body) => runtimeApi.projects.createTask(project.id, body),
    onSuccess: () => {
      setName('');
      setBranch('');
      void queryClient.invalidateQueries({ queryKey: ['tasks', project.id] });
    },
  });
  const remove = useMutation<unknown, ApiError, string>({
    mutationFn: runtimeApi.tasks.remove,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['tasks', project.id] }),
  });
  const errorField = fieldOfError(create.error, taskFields);
  const errorOf = (field: (typeof taskFields)[number]) => (errorField === field ? create.error : null);
  const noteId = (field: string) => `${id}-${field}-error`;
  const note = (field: (typeof taskFields)[number]) =>
    errorOf(field) ? (
      <div className="field-error" data-error-for={field}>
        <ErrorNote error={errorOf(field)} id={noteId(field)} />
      </div>
    ) : null;
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!create.isPending) create.mutate({ name: name.trim(), branch_name: branch.trim() });
  }
  const list = tasks.data?.tasks ?? [];
  return (
    <section className="project-tasks" aria-label="Tasks">
      <h2>Tasks</h2>
      <p className="hint">
        A task is a branch of the project's repository with a session of its own. Creating one creates the
        branch (or switches to it): the working tree must be clean.
      </p>
      <form className="card form task-form" onSubmit={submit} aria-label="New task">
        <div className="task-form-row">
          <div className="field">
            <label htmlFor={`${id}-name`}>Task</label>
            <input
              id={`${id}-name`}
              value={name}
              required
              placeholder="Add the checkout page"
              onChange={(event) => setName(event.target.value)}
              {...invalidBy(errorOf('name'), noteId('name'))}
            />
            {note('name')}
          </div>
          <div className="field">
            <label htmlFor={`${id}-branch`}>Branch</label>
            <input
              id={`${id}-branch`}
              className="mono"
              value={branch}
              required
              spellCheck={false}
              placeholder="feature/checkout"
              onChange={(event) => setBranch(event.target.value)}
              {...invalidBy(errorOf('branch_name'), noteId('branch_name'))}
            />
            {note('branch_name')}
          </div>
          <button
            type="submit"
            className="button-primary"
            disabled={create.isPending || !name.trim() || !branch.trim()}
          >
            {create.isPending ? 'Creating…' : 'Create task'}
          </button>
        </div>
        {create.error && !errorField ? <ErrorNote error={create.error} /> : null}
      </form>
      {tasks.isPending ? <Loading what="tasks" /> : null}
      <ErrorNote error={tasks.error} />
      <ErrorNote error={remove.error} />
      {tasks.data && list.length === 0 ? <Empty>No tasks yet.</Empty> : null}
      <ul className="task-rows">
        {list.map((task) => (
          <li key={task.id} className="task-row" data-task-id={task.id}>
            <div className="task-main">
              <strong className="task-name">{task.name}</strong>
              <span className="hint">
                branch <code>{task.branch_name}</code>
                {task.session_id ? (
                  <>
                    {' '}
                    · session <code>{task.session_id}</code>
                  </>
                ) : null}{' '}
                · {timeAgo(task.created_at)}
              </span>
            </div>
            <div className="task-actions">
              <button
                type="button"
                className="button-secondary"
                onClick={() =>
                  onStartIn({
                    workdir: project.workdir,
                    ...(task.session_id ? { session_id: task.session_id } : {}),
                    label: `task ${task.name} (branch ${task.branch_name})`,
                  })
                }
              >
                Start a run
              </button>
              <ConfirmButton
                label="Delete"
                question={`Delete the task "${task.name}"? Its branch, session and runs stay.`}
                pending={remove.isPending && remove.variables === task.id}
                onConfirm={() => remove.mutate(task.id)}
              />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
