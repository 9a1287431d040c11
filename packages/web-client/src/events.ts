import { refusal, type ServiceHttp, segment, send } from '@keel/protocol/client';
import { finishedStatuses, type RunDetail, type RunEvent, runEvent } from '@keel/protocol/runtime';
import { KeelWebApiError, KeelWebConnectionError, KeelWebResponseError } from './errors.ts';
import { sseMessages } from './sse.ts';

/** One event of a run's log, with its place in it (`seq`, from 1): the cursor to resume from. */
export interface RunEventEntry {
  seq: number;
  event: RunEvent;
}

/** How a dropped event stream is tried again: after `initialDelayMs`, doubling up to `maxDelayMs`. */
export interface ReconnectOptions {
  /** Default 250. */
  initialDelayMs?: number;
  /** Default 5000. */
  maxDelayMs?: number;
  /** Failed connections in a row before giving up with `KeelWebConnectionError` (default 10; `Infinity`: never). */
  maxAttempts?: number;
}

export interface FollowOptions {
  /** Replay the log after this seq (default 0: all of it). */
  after?: number;
  /** Each event once, in seq order: across dropped connections too. */
  onEvent?: (entry: RunEventEntry) => void;
  /** Gives up following: the promise rejects with the signal's reason (the run goes on). */
  signal?: AbortSignal;
  /** Told each time a stream is open, before its replay: a page can stop saying "loading" or "reconnecting". */
  onOpen?: () => void;
  /** Told of each connection that failed or broke, with why (tried again unless `maxAttempts` is reached). */
  onDrop?: (error: unknown) => void;
}

export interface StreamContext {
  /** keel-web's address, key and errors, as the REST calls use them. */
  http: ServiceHttp;
  reconnect: Required<ReconnectOptions>;
  /** `GET /runtime/runs/{id}`, through the client. */
  getRun: (runId: string) => Promise<RunDetail>;
}

/** Opens `GET /runtime/runs/{id}/events?after=`; a refusal is a `KeelWebApiError`. */
async function openStream(
  context: StreamContext,
  runId: string,
  after: number,
  signal: AbortSignal | undefined,
): Promise<ReadableStream<Uint8Array>> {
  const path = `/runtime/runs/${segment(runId)}/events`;
  const { response, route } = await send(context.http, 'GET', path, 'text/event-stream', {
    query: { after },
    signal,
  });
  if (!response.body) throw refusal(context.http, response, await response.text(), route);
  return response.body;
}

/** Each stored event of the stream after `after`, checked against the protocol's `runEvent`. */
async function* entries(
  context: StreamContext,
  runId: string,
  after: number,
  signal: AbortSignal | undefined,
  onOpen?: () => void,
): AsyncGenerator<RunEventEntry> {
  const route = `GET /runtime/runs/${runId}/events`;
  const body = await openStream(context, runId, after, signal);
  onOpen?.();
  for await (const message of sseMessages(body)) {
    const seq = Number(message.id);
    let data: unknown;
    try {
      data = JSON.parse(message.data);
    } catch {
      throw new KeelWebResponseError(route, 'an event that is not JSON', message.data);
    }
    const parsed = runEvent.safeParse(data);
    if (!parsed.success || !Number.isInteger(seq)) {
      throw new KeelWebResponseError(
        route,
        'an event its schema does not describe',
        data,
        parsed.error?.issues,
      );
    }
    yield { seq, event: parsed.data };
  }
}

/** Waits `ms` (the back-off between connections), or rejects as soon as `signal` aborts. */
function backOff(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** A refusal a new connection would get again (a 4xx), or an answer the protocol does not describe. */
function fatal(error: unknown): boolean {
  return (KeelWebApiError.is(error) && error.status < 500) || KeelWebResponseError.is(error);
}

/**
 * Follows a run's events over SSE (`GET /runtime/runs/{id}/events`) until it ends: each event once, in
 * order. The cursor is the last seq delivered; when the connection drops (or a stream ends before the run
 * did), the run is read and, unless it ended with nothing left to hear, the stream is opened again from
 * the cursor after a back-off. Answers the run's detail once it ended.
 */
export async function followRun(
  context: StreamContext,
  runId: string,
  options: FollowOptions = {},
): Promise<RunDetail> {
  const { signal, onEvent, onOpen, onDrop } = options;
  const route = `GET /runtime/runs/${runId}/events`;
  const { initialDelayMs, maxDelayMs, maxAttempts } = context.reconnect;
  let last = options.after ?? 0;
  let failures = 0;
  for (;;) {
    signal?.throwIfAborted();
    let cause: unknown;
    let progressed = false;
    try {
      for await (const entry of entries(context, runId, last, signal, onOpen)) {
        if (entry.seq <= last) continue;
        last = entry.seq;
        progressed = true;
        onEvent?.(entry);
      }
      const run = await context.getRun(runId);
      if (finishedStatuses.includes(run.status) && run.last_seq <= last) return run;
    } catch (error) {
      signal?.throwIfAborted();
      if (fatal(error)) throw error;
      cause = error;
      onDrop?.(error);
    }
    failures = progressed ? 0 : failures + 1;
    if (failures >= maxAttempts) throw new KeelWebConnectionError(route, failures, cause);
    if (failures > 0) await backOff(Math.min(maxDelayMs, initialDelayMs * 2 ** (failures - 1)), signal);
  }
}

/**
 * The run's events stored after `after`, up to its `last_seq` when asked (one page of its log, live or
 * ended); the stream is closed as soon as they arrived.
 */
export async function readEvents(
  context: StreamContext,
  runId: string,
  options: { after?: number; signal?: AbortSignal } = {},
): Promise<RunEventEntry[]> {
  const after = options.after ?? 0;
  const { last_seq: upTo } = await context.getRun(runId);
  if (upTo <= after) return [];
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([stop.signal, options.signal]) : stop.signal;
  const found: RunEventEntry[] = [];
  try {
    for await (const entry of entries(context, runId, after, signal)) {
      if (entry.seq > upTo) break;
      found.push(entry);
      if (entry.seq >= upTo) break;
    }
  } finally {
    stop.abort();
  }
  return found;
}
