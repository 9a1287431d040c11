import { Link } from 'react-router';

/** What a link to nothing shows: what was not found, why that may be, and the ways back. */
export function NotFound({
  what,
  id,
  back,
}: {
  /** "Task", "Project", "Page"… */
  what: string;
  id?: string;
  /** The list to go back to. */
  back: { to: string; label: string };
}) {
  return (
    <div className="page not-found" data-testid="not-found">
      <h1>{what} not found</h1>
      <p className="lede">
        {id ? (
          <>
            There is no {what.toLowerCase()} <code>{id}</code>: it may have been deleted, or the link is
            wrong.
          </>
        ) : (
          'Nothing is at this address: the link may be wrong or out of date.'
        )}
      </p>
      <p className="not-found-links">
        <Link to={back.to} className="button button-primary">
          ← {back.label}
        </Link>
        {back.to === '/projects' ? null : (
          <Link to="/projects" className="button button-secondary">
            Projects
          </Link>
        )}
      </p>
    </div>
  );
}

/** Whether an error says the thing asked for does not exist. */
export function isNotFound(error: { status: number; code: string }): boolean {
  return error.status === 404 || error.code.endsWith('_NOT_FOUND');
}
