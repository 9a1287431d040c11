import { Link } from 'react-router';
import { scrub } from '../../api/error-words.ts';
import type { Task } from '../../api/types.ts';

/**
 * The PRD links the plan's first draft could not read (`prd_link_errors`): the plan was written without
 * them, which the user should know before trusting it. Each URL with the reason, in words; a refused
 * address leads to the Settings field that allows it. A status, not an alert: it stays on every stage of
 * the task and must not be read out again at each.
 */
export function PrdLinkErrors({ task }: { task: Task }) {
  const errors = task.prd_link_errors ?? [];
  if (errors.length === 0) return null;
  const one = errors.length === 1;
  return (
    <div className="banner-warn prd-link-errors" role="status" data-testid="prd-link-errors">
      <p>
        {one
          ? 'This PRD link could not be read, so the plan was written without it:'
          : 'These PRD links could not be read, so the plan was written without them:'}
      </p>
      <ul>
        {errors.map((error) => (
          <li key={error.url} className="prd-link-error">
            <code>{error.url}</code>: {scrub(error.message)}
          </li>
        ))}
      </ul>
      {errors.some((error) => error.message.includes('prd_links')) ? (
        <p>
          To let the workbench read such an address, allow its host in{' '}
          <Link to="/settings#prd-links">Settings → PRD links</Link>, then draft the plan again.
        </p>
      ) : null}
    </div>
  );
}
