import { finishedStatuses, type Run, type RunStatus, type Runtime, runStatuses } from '@keel/runtime';

const inProgress = runStatuses.filter((status) => !finishedStatuses.includes(status));
const pageSize = 100;
/** How far back a reconnect looks among finished runs for one that ended while it was away. */
const finishedPages = 5;

/**
 * The run a reconnecting client of a session follows: the newest run of the session still in progress,
 * found however many runs came after it (only runs in progress are read, status by status, a page at a
 * time, and those are few next to the finished ones). A client that brings a cursor may have missed the
 * end of a run that finished while it was away: then the session's newest run among the recently finished
 * ones (the newest 500 of each final status) that has events after the cursor.
 */
export async function runToResume(
  runtime: Runtime,
  sessionId: string,
  after: number | undefined,
): Promise<Run | undefined> {
  // Read status by status, a run can move between two reads (queued → running): a second look finds it.
  const active =
    (await newestOfSession(runtime, sessionId, inProgress, Number.POSITIVE_INFINITY)) ??
    (await newestOfSession(runtime, sessionId, inProgress, Number.POSITIVE_INFINITY));
  if (active || after === undefined) return active;
  const ended = await newestOfSession(runtime, sessionId, finishedStatuses, finishedPages);
  return ended && ended.last_seq > after ? ended : undefined;
}

async function newestOfSession(
  runtime: Runtime,
  sessionId: string,
  statuses: readonly RunStatus[],
  maxPages: number,
): Promise<Run | undefined> {
  let newest: Run | undefined;
  for (const status of statuses) {
    let before: string | undefined;
    for (let pages = 0; pages < maxPages; pages++) {
      const runs = await runtime.runs.list({ status, limit: pageSize, ...(before ? { before } : {}) });
      const found = runs.find((run) => run.session_id === sessionId);
      if (found) {
        if (!newest || found.id > newest.id) newest = found;
        break;
      }
      if (runs.length < pageSize) break;
      before = runs.at(-1)?.id;
    }
  }
  return newest;
}
