import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { api } from '../../api/client.ts';
import type { ApiError } from '../../api/errors.ts';
import type { Task, Todo, TodoPatch } from '../../api/types.ts';
import { useFieldErrors } from '../../components/field-errors.ts';
import { ErrorNote, invalidBy } from '../../components/status.tsx';

/**
 * The todo list's hand edits (TODO_READY): each answers the new list, which goes into the task at once.
 * `pending` is true while any of them runs, so two edits never race.
 */
export function useTodoEdits(task: Task) {
  const queryClient = useQueryClient();
  // Adding and editing answer `{todo, todos}`, removing and reordering the list itself.
  const onList = (todos: Todo[]) => {
    queryClient.setQueryData<Task>(['task', task.id], (current) =>
      current
        ? {
            ...current,
            // The list answers todos without their tokens: kept from the task until it is read again.
            todos: todos.map((todo) => ({
              ...todo,
              usage: current.todos.find((known) => known.id === todo.id)?.usage ?? null,
            })),
          }
        : current,
    );
    void queryClient.invalidateQueries({ queryKey: ['task', task.id] });
  };
  const add = useMutation<{ todos: Todo[] }, ApiError, { title: string; description: string }>({
    mutationFn: (input) => api.tasks.addTodo(task.id, input),
    onSuccess: (answer) => onList(answer.todos),
  });
  const edit = useMutation<{ todos: Todo[] }, ApiError, { id: string; patch: TodoPatch }>({
    mutationFn: ({ id, patch }) => api.tasks.editTodo(task.id, id, patch),
    onSuccess: (answer) => onList(answer.todos),
  });
  const remove = useMutation<Todo[], ApiError, string>({
    mutationFn: (id) => api.tasks.removeTodo(task.id, id),
    onSuccess: onList,
  });
  const reorder = useMutation<Todo[], ApiError, string[]>({
    mutationFn: (order) => api.tasks.reorderTodos(task.id, order),
    onSuccess: onList,
  });
  /** Moves the todo at `index` one place up (-1) or down (+1). */
  const move = (index: number, by: -1 | 1) => {
    const order = task.todos.map((todo) => todo.id);
    const other = index + by;
    const here = order[index];
    const there = order[other];
    if (here === undefined || there === undefined) return;
    order[index] = there;
    order[other] = here;
    reorder.mutate(order);
  };
  const pending = add.isPending || edit.isPending || remove.isPending || reorder.isPending;
  return { add, edit, remove, reorder, move, pending };
}

/** A todo's title, description and expected output, edited in place. */
export function TodoEditForm({
  todo,
  pending,
  error,
  onSave,
  onCancel,
}: {
  todo: Todo;
  pending: boolean;
  error: ApiError | null;
  onSave: (patch: TodoPatch) => void;
  onCancel: () => void;
}) {
  const ids = useId();
  const [title, setTitle] = useState(todo.title);
  const [description, setDescription] = useState(todo.description);
  const [expected, setExpected] = useState(todo.expected_output);
  const { about, onChange } = useFieldErrors(error);
  const general =
    error && !['title', 'description', 'expected_output'].some((field) => error.isAbout(field))
      ? error
      : null;
  function submit(event: FormEvent) {
    event.preventDefault();
    const patch: TodoPatch = {};
    if (title !== todo.title) patch.title = title;
    if (description !== todo.description) patch.description = description;
    if (expected !== todo.expected_output) patch.expected_output = expected;
    if (Object.keys(patch).length === 0) onCancel();
    else onSave(patch);
  }
  return (
    <form
      className="form todo-edit"
      aria-label={`Edit todo ${todo.position}`}
      onSubmit={submit}
      onChange={onChange}
    >
      <label className="field">
        <span>Title</span>
        <input
          name="title"
          value={title}
          onChange={(event) => setTitle(event.target.value)}
          {...invalidBy(about('title'), `${ids}-title-error`)}
        />
        <ErrorNote error={about('title')} id={`${ids}-title-error`} />
      </label>
      <label className="field">
        <span>Description</span>
        <textarea
          name="description"
          rows={3}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          {...invalidBy(about('description'), `${ids}-description-error`)}
        />
        <ErrorNote error={about('description')} id={`${ids}-description-error`} />
      </label>
      <label className="field">
        <span>Expected output</span>
        <input
          name="expected_output"
          value={expected}
          onChange={(event) => setExpected(event.target.value)}
          {...invalidBy(about('expected_output'), `${ids}-expected-error`)}
        />
        <ErrorNote error={about('expected_output')} id={`${ids}-expected-error`} />
      </label>
      <div className="form-actions">
        <button type="submit" className="button-primary" disabled={pending}>
          {pending ? 'Saving…' : 'Save todo'}
        </button>
        <button type="button" className="button-quiet" onClick={onCancel}>
          Cancel
        </button>
        <ErrorNote error={general} />
      </div>
    </form>
  );
}

/** A new todo at the end of the list. */
export function TodoAddForm({
  pending,
  error,
  onAdd,
}: {
  pending: boolean;
  error: ApiError | null;
  onAdd: (input: { title: string; description: string }, done: () => void) => void;
}) {
  const ids = useId();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const { about, onChange } = useFieldErrors(error);
  const general = error && !['title', 'description'].some((field) => error.isAbout(field)) ? error : null;
  function submit(event: FormEvent) {
    event.preventDefault();
    onAdd({ title, description }, () => {
      setTitle('');
      setDescription('');
    });
  }
  return (
    <form className="form todo-add" aria-label="Add a todo" onSubmit={submit} onChange={onChange}>
      <label className="field">
        <span>New todo</span>
        <input
          name="title"
          value={title}
          placeholder="Title, e.g. Add tests for the greeting"
          onChange={(event) => setTitle(event.target.value)}
          {...invalidBy(about('title'), `${ids}-title-error`)}
        />
        <ErrorNote error={about('title')} id={`${ids}-title-error`} />
      </label>
      <label className="field">
        <span>Description (optional)</span>
        <textarea
          name="description"
          rows={2}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          {...invalidBy(about('description'), `${ids}-description-error`)}
        />
        <ErrorNote error={about('description')} id={`${ids}-description-error`} />
      </label>
      <div className="form-actions">
        <button type="submit" className="button-secondary" disabled={pending || !title.trim()}>
          Add todo
        </button>
        <ErrorNote error={general} />
      </div>
    </form>
  );
}
