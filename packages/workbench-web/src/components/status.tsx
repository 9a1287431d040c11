import { errorWords } from '../api/error-words.ts';
import type { ApiError } from '../api/errors.ts';
import { mergeRequestSummary, taskStatus } from '../api/task-status.ts';
import type { Task } from '../api/types.ts';

export function Loading({ what }: { what?: string }) {
  return (
    <div className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      Loading{what ? ` ${what}` : ''}…
    </div>
  );
}

export function Empty({ children }: { children: React.ReactNode }) {
  return <div className="empty">{children}</div>;
}

/**
 * An API error next to what caused it, in words (`errorWords`: "Name is required.", what a busy session
 * runs, what to do), never a bare code, a field path or an internal id; the code and the service's own
 * message are folded under "Details", for a report.
 */
export function ErrorNote({ error, id }: { error: ApiError | null | undefined; id?: string }) {
  if (!error) return null;
  const words = errorWords(error);
  return (
    <div className="error-note" role="alert" id={id}>
      <span className="error-words">{words}</span>{' '}
      <details className="error-details">
        <summary>Details</summary>
        <code className="error-code">{error.code}</code>
        {error.message !== words ? <span className="error-message"> {error.message}</span> : null}
      </details>
    </div>
  );
}

/**
 * The field's half of an error shown next to it: marked invalid and described by the note, which is an
 * ErrorNote with the same id. Nothing while the field has no error.
 */
export function invalidBy(error: ApiError | null | undefined, noteId: string) {
  return error ? { 'aria-invalid': true as const, 'aria-describedby': noteId } : {};
}

const tones: Record<string, string> = {
  done: 'ok',
  succeeded: 'ok',
  READY: 'ok',
  DONE: 'ok',
  failed: 'bad',
  FAILED: 'bad',
  cancelled: 'muted',
  CANCELLED: 'muted',
  skipped: 'muted',
  running: 'busy',
  queued: 'busy',
  INITIALIZING: 'busy',
  PLAN_LOCKED: 'busy',
  CODING: 'busy',
  pending: 'idle',
  idle: 'idle',
  CREATED: 'idle',
  // The runtime's run and approval states (keel-web's console).
  waiting: 'warn',
  paused: 'idle',
  approved: 'ok',
  answered: 'ok',
  rejected: 'bad',
};

/** A state or status as a small coloured label. */
export function Badge({ value, title, tone }: { value: string; title?: string; tone?: string }) {
  return (
    <span className={`badge badge-${tone ?? tones[value] ?? 'info'}`} title={title}>
      {value.replaceAll('_', ' ')}
    </span>
  );
}

/**
 * A task's badge: what it is doing now, from its state and what runs in it (see `taskStatus`); with its
 * merge requests' state once submitted. A DONE task shows only the latter: "done" would hide failing checks.
 */
export function TaskBadge({ task }: { task: Task }) {
  const status = taskStatus(task);
  const mergeRequests = mergeRequestSummary(task.merge_requests);
  return (
    <span className="task-badges">
      {task.state === 'DONE' && mergeRequests ? null : (
        <span className={`badge badge-${status.tone}`} title={status.title} data-state={task.state}>
          {status.label}
        </span>
      )}
      {mergeRequests ? (
        <span
          className={`badge badge-words badge-${mergeRequests.tone}`}
          title={mergeRequests.title}
          data-testid="mr-summary"
          data-state={task.state}
        >
          {mergeRequests.label}
        </span>
      ) : null}
    </span>
  );
}
