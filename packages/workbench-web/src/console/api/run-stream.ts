import { sseMessages } from '@keel/web-client/sse';
import { errorFromResponse } from '../../api/errors.ts';
import { authorizedFetch } from '../../api/request.ts';
import type { RunEvent, RunEventRecord } from './runtime-types.ts';

/**
 * Reads a run's event stream, `GET /runtime/runs/{id}/events?after=<seq>`, handing over each record, until
 * the server ends it (the run ended, or no event for 10 minutes) or `signal` aborts. fetch rather than
 * EventSource: the API key goes in a header. A refused request throws its ApiError.
 */
export async function readRunEvents(
  runId: string,
  after: number,
  onRecord: (record: RunEventRecord) => void,
  signal: AbortSignal,
  onOpen?: () => void,
): Promise<void> {
  const response = await authorizedFetch(`/runtime/runs/${encodeURIComponent(runId)}/events?after=${after}`, {
    headers: { accept: 'text/event-stream' },
    signal,
  });
  if (!response.ok) throw await errorFromResponse(response);
  onOpen?.();
  if (!response.body) return;
  // The one SSE parser every client shares (`@keel/web-client`).
  for await (const message of sseMessages(response.body)) {
    onRecord({ seq: Number(message.id), event: JSON.parse(message.data) as RunEvent });
  }
}

export interface FollowOptions {
  runId: string;
  /** The last seq delivered so far: a (re)connection asks for what follows it. */
  cursor: () => number;
  onRecord: (record: RunEventRecord) => void;
  /** Told each time a stream is open (its replay follows). */
  onOpen?: () => void;
  /** Asked each time a stream ends: true when the run is final and every event was delivered. */
  finished: () => Promise<boolean>;
  /** Told of a failed connection (then retried), and of `null` once a stream reads again. */
  onTrouble?: (error: unknown) => void;
  signal: AbortSignal;
  /** The reader (tests give their own). */
  read?: typeof readRunEvents;
  /** The pause between reconnections after failures, by attempt (tests shorten it). */
  backoffMs?: (attempt: number) => number;
}

const isNotFound = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { status?: unknown }).status === 404;

/**
 * Follows a run to its end across drops: reads its stream from the cursor, and whenever the stream ends
 * reconnects from the last seq delivered, unless the run is final and caught up. A failure is retried with
 * backoff (up to 10 s), except an unknown run, which ends the follow.
 */
export async function followRunEvents(options: FollowOptions): Promise<void> {
  const read = options.read ?? readRunEvents;
  const backoff = options.backoffMs ?? ((attempt: number) => Math.min(10_000, 500 * 2 ** attempt));
  let failures = 0;
  while (!options.signal.aborted) {
    let delivered = 0;
    try {
      await read(
        options.runId,
        options.cursor(),
        (record) => {
          delivered += 1;
          options.onRecord(record);
        },
        options.signal,
        () => {
          // Connected again: the trouble is over.
          if (failures > 0) options.onTrouble?.(null);
          failures = 0;
          options.onOpen?.();
        },
      );
      failures = 0;
    } catch (error) {
      if (options.signal.aborted) return;
      options.onTrouble?.(error);
      if (isNotFound(error)) return;
      failures += 1;
    }
    if (options.signal.aborted) return;
    if (failures === 0 && (await options.finished().catch(() => false))) return;
    // A failure, or a stream that ended with nothing new while the run goes on: wait before the next try.
    if (failures > 0 || delivered === 0) await pause(backoff(Math.max(0, failures - 1)), options.signal);
  }
}

/** Waits `ms`, or less if `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
