import type { Project, Task } from '@keel/protocol/runtime';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ApiError } from '../../api/errors.ts';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import { Empty, ErrorNote, Loading } from '../../components/status.tsx';
import { keelWeb } from '../api/keel-web.ts';
import { timeAgo } from '../format.ts';
import type { RunTarget } from '../run-target.ts';
import { TaskForm } from './task-form.tsx';

/**
 * `GET`/`POST /api/projects/{id}/tasks` and `PUT`/`DELETE /api/tasks/{id}`: the project's tasks, each
 * created, edited in its row, started in, or deleted (asked twice) here.
 */
export function ProjectTasks({
  project,
  onStartIn,
}: {
  project: Project;
  onStartIn: (target: RunTarget) => void;
}) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<string | null>(null);
  const tasks = useQuery<{ tasks: Task[] }, ApiError>({
    queryKey: ['tasks', project.id],
    queryFn: () => keelWeb.projects.tasks(project.id, { limit: 100 }),
  });
  const remove = useMutation<unknown, ApiError, string>({
    mutationFn: keelWeb.tasks.remove,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['tasks', project.id] }),
  });
  const list = tasks.data?.tasks ?? [];
  return (
    <section className="project-tasks" aria-label="Tasks">
      <h2>Tasks</h2>
      <p className="hint">
        A task is a branch of the project's repository with a session of its own. Creating one creates the
        branch (or switches to it): the working tree must be clean.
      </p>
      <TaskForm projectId={project.id} />
      {tasks.isPending ? <Loading what="tasks" /> : null}
      <ErrorNote error={tasks.error} />
      <ErrorNote error={remove.error} />
      {tasks.data && list.length === 0 ? <Empty>No tasks yet.</Empty> : null}
      <ul className="task-rows">
        {list.map((task) => (
          <li key={task.id} className="task-row" data-task-id={task.id}>
            {editing === task.id ? (
              <TaskForm
                projectId={project.id}
                task={task}
                onSaved={() => setEditing(null)}
                onCancel={() => setEditing(null)}
              />
            ) : (
              <>
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
                  <button type="button" className="button-secondary" onClick={() => setEditing(task.id)}>
                    Edit
                  </button>
                  <ConfirmButton
                    label="Delete"
                    question={`Delete the task "${task.name}"? Its branch, session and runs stay.`}
                    pending={remove.isPending && remove.variables === task.id}
                    onConfirm={() => remove.mutate(task.id)}
                  />
                </div>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
