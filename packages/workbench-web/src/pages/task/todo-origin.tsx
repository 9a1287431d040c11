import type { Todo } from '../../api/types.ts';

/**
 * Where a follow-up todo came from, as a small label: a review finding, a failed check or a comment of the
 * merge request, or written out by hand. A todo of the plan has none.
 */
export function TodoOrigin({ todo }: { todo: Todo }) {
  const origin = todo.origin;
  if (!origin || origin.kind === 'plan') return null;
  const [label, title] =
    origin.kind === 'review'
      ? ['follow-up: review', 'From a finding of the review']
      : origin.kind === 'user'
        ? ['follow-up', 'A follow-up written out by hand']
        : origin.check !== undefined
          ? [
              `follow-up: check ${origin.check}`,
              `From a failed check of ${origin.repository}'s merge request`,
            ]
          : ['follow-up: comment', `From a comment on ${origin.repository}'s merge request`];
  return (
    <span className="badge badge-info todo-origin" title={title} data-testid="todo-origin">
      {label}
    </span>
  );
}
