/**
 * Whether the workbench service answers, as the page's own calls last found it: every call goes through
 * `watchedFetch`, and `followConnection` asks `/health` now and then so that an idle page learns of an
 * outage too (not only when a click fails). Any HTTP answer, even a refusal, means the service is there.
 */
export interface Connection {
  reachable: boolean;
  /** When it last changed (ms since the epoch). */
  since: number;
}

let current: Connection = { reachable: true, since: Date.now() };
const listeners = new Set<() => void>();

export const connection = {
  get: (): Connection => current,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** What a call found; listeners hear changes only. */
function noteReachable(reachable: boolean): void {
  if (current.reachable === reachable) return;
  current = { reachable, since: Date.now() };
  for (const listener of listeners) listener();
}

/** `fetch`, noting whether the service answered. The caller's own abort says nothing about the service. */
export async function watchedFetch(
  input: Parameters<typeof fetch>[0],
  init?: RequestInit,
): Promise<Response> {
  try {
    const response = await fetch(input, init);
    noteReachable(true);
    return response;
  } catch (error) {
    if (!init?.signal?.aborted) noteReachable(false);
    throw error;
  }
}
