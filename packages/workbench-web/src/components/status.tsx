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
};

/** A state or status as a small coloured label. */
export function Badge({ value, title }: { value: string; title?: string }) {
  return (
    <span className={`badge badge-${tones[value] ?? 'info'}`} title={title}>
      {value.replaceAll('_', ' ')}
    </span>
  );
}
