import type { Task } from '@keel/protocol/runtime';
import type { NewTask, TaskUpdate } from '@keel/web-client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { ApiError } from '../../api/errors.ts';
import { ErrorNote } from '../../components/status.tsx';
import { keelWeb } from '../api/keel-web.ts';
import { useFieldErrors } from '../use-field-errors.tsx';

const fields = ['name', 'branch_name'] as const;

type TaskPage = { tasks: Task[]; next_cursor: string | null };

/**
 * `POST /api/projects/{id}/tasks` as a form, or with `task` its `PUT /api/tasks/{id}` (only what changed:
 * a new branch is created or switched to, which needs a clean tree). A 422 shows under the field it names;
 * a 409 (a dirty tree) or 404 by the buttons.
 */
export function TaskForm({
  projectId,
  task,
  onSaved,
  onCancel,
}: {
  projectId: string;
  task?: Task;
  onSaved?: (task: Task) => void;
  onCancel?: () => void;
}) {
  const queryClient = useQueryClient();
  const id = useId();
  const [name, setName] = useState(task?.name ?? '');
  const [branch, setBranch] = useState(task?.branch_name ?? '');
  const nameInput = useRef<HTMLInputElement>(null);
  // Editing starts in the name; keyed on the mode, not the record, which a refetch replaces.
  const editing = task !== undefined;
  useEffect(() => {
    if (editing) nameInput.current?.focus();
  }, [editing]);
  const save = useMutation<Task, ApiError, NewTask | TaskUpdate>({
    // Creating, the body is always a whole NewTask (see `body` below).
    mutationFn: (body) =>
      task ? keelWeb.tasks.update(task.id, body) : keelWeb.projects.createTask(projectId, body as NewTask),
    onSuccess: (saved) => {
      if (task) {
        // The row shows the saved task at once, not the old one until the list is read again.
        queryClient.setQueryData<TaskPage>(['tasks', projectId], (page) =>
          page ? { ...page, tasks: page.tasks.map((each) => (each.id === saved.id ? saved : each)) } : page,
        );
      } else {
        setName('');
        setBranch('');
      }
      void queryClient.invalidateQueries({ queryKey: ['tasks', projectId] });
      onSaved?.(saved);
    },
  });
  const errors = useFieldErrors(save.error, fields);
  const typed = { name: name.trim(), branch_name: branch.trim() };
  const body: NewTask | TaskUpdate = task
    ? {
        ...(typed.name !== task.name ? { name: typed.name } : {}),
        ...(typed.branch_name !== task.branch_name ? { branch_name: typed.branch_name } : {}),
      }
    : typed;
  const unchanged = task !== undefined && Object.keys(body).length === 0;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!save.isPending && !unchanged) save.mutate(body);
  }

  return (
    <form
      className={task ? 'form task-form task-edit' : 'card form task-form'}
      onSubmit={submit}
      aria-label={task ? `Edit task ${task.name}` : 'New task'}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && onCancel) onCancel();
      }}
    >
      <div className="task-form-row">
        <div className="field">
          <label htmlFor={`${id}-name`}>Task</label>
          <input
            id={`${id}-name`}
            ref={nameInput}
            value={name}
            required
            placeholder="Add the checkout page"
            onChange={(event) => setName(event.target.value)}
            {...errors.invalid('name')}
          />
          {errors.note('name')}
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
            title={
              task ? 'Another branch is created, or switched to: the working tree must be clean' : undefined
            }
            onChange={(event) => setBranch(event.target.value)}
            {...errors.invalid('branch_name')}
          />
          {errors.note('branch_name')}
        </div>
        <div className="task-form-buttons">
          <button
            type="submit"
            className="button-primary"
            disabled={save.isPending || !typed.name || !typed.branch_name || unchanged}
          >
            {task ? (save.isPending ? 'Saving…' : 'Save') : save.isPending ? 'Creating…' : 'Create task'}
          </button>
          {onCancel ? (
            <button type="button" className="button-secondary" onClick={onCancel}>
              Cancel
            </button>
          ) : null}
        </div>
      </div>
      <ErrorNote error={errors.general} />
    </form>
  );
}
