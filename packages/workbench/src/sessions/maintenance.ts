import type { SessionLog } from './session-log.ts';
import type { SessionStore } from './session-store.ts';

/**
 * Start-up repair after a crash: a session left running had its process killed. It is marked failed with
 * code INTERRUPTED, and the log says so (its seq continues after the last complete line).
 */
export function failInterruptedSessions(store: SessionStore, log: SessionLog): string[] {
  const interrupted = store.byStatus('running');
  for (const session of interrupted) {
    const error = {
      code: 'INTERRUPTED',
      message: 'The workbench stopped while this session ran; run it again.',
    };
    log.append(session.id, { type: 'error', error });
    store.update(session.id, {
      status: 'failed',
      error,
      last_seq: log.lastSeq(session.id),
      ended_at: new Date().toISOString(),
    });
  }
  return interrupted.map((session) => session.id);
}

/** Deletes the JSONL logs of finished sessions that ended more than `days` ago; returns how many. */
export function cleanUpLogs(store: SessionStore, log: SessionLog, days: number, now = Date.now()): number {
  const before = new Date(now - days * 24 * 60 * 60 * 1000).toISOString();
  let removed = 0;
  for (const session of store.endedBefore(before)) {
    if (!log.exists(session.id)) continue;
    log.remove(session.id);
    removed++;
  }
  return removed;
}
