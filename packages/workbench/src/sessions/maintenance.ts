import type { SessionLog } from './session-log.ts';
import type { Sessions } from './sessions.ts';

/**
 * Start-up repair after a crash: a session left running had its process killed. It is marked failed with
 * code INTERRUPTED, and the log says so (its seq continues after the last complete line).
 */
export async function failInterruptedSessions(store: Sessions, log: SessionLog): Promise<string[]> {
  const interrupted = await store.byStatus('running');
  for (const session of interrupted) {
    const error = {
      code: 'INTERRUPTED',
      message: 'The workbench stopped while this session ran; run it again.',
    };
    await log.append(session.id, { type: 'error', error });
    await store.update(session.id, {
      status: 'failed',
      error,
      last_seq: await log.lastSeq(session.id),
      ended_at: new Date().toISOString(),
    });
  }
  return interrupted.map((session) => session.id);
}

/** Deletes the JSONL logs of finished sessions that ended more than `days` ago; returns how many. */
export async function cleanUpLogs(
  store: Sessions,
  log: SessionLog,
  days: number,
  now = Date.now(),
): Promise<number> {
  const before = new Date(now - days * 24 * 60 * 60 * 1000).toISOString();
  let removed = 0;
  for (const session of await store.endedBefore(before)) {
    if (!(await log.exists(session.id))) continue;
    await log.remove(session.id);
    removed++;
  }
  return removed;
}
