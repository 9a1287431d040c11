import type { ApiError } from '../api/errors.ts';

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

/** An API error next to what caused it: the code, the message, and what the service said to fix. */
export function ErrorNote({ error, id }: { error: ApiError | null | undefined; id?: string }) {
  if (!error) return null;
  return (
    <div className="error-note" role="alert" id={id}>
      <strong>{error.code}</strong> {error.message}
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
export function Badge({ value, title }: { value: string; title?: string }) {
  return (
    <span className={`badge badge-${tones[value] ?? 'info'}`} title={title}>
      {value.replaceAll('_', ' ')}
    </span>
  );
}
