import type { RunRequest, Runtime, RuntimeEvent } from '@keel/runtime';
import { toErrorObject } from '@keel/runtime';

/** The parts of the runtime the TUI uses: the same SDK every surface calls. */
export type TuiRuntime = Pick<Runtime, 'stream' | 'sendInput' | 'approvals' | 'sessions' | 'runs' | 'skills'>;

export interface RunHandlers {
  /** Aborting it cancels the run, also while it waits for an answer. */
  signal: AbortSignal;
  onEvent(event: RuntimeEvent): void;
  /** The run's id, once known: what user input and the store need. */
  onRunId(runId: string): void;
}

const endEvents = new Set<RuntimeEvent['type']>(['done', 'error', 'cancelled']);

/**
 * Streams one run (`runtime.stream`, the one execution path) into the handlers, and always ends it with a
 * `done`, `error` or `cancelled` event: a request refused before it starts (bad request, unknown session,
 * no model) and a stream that stops without saying why get one made from the error or the stored run.
 */
export async function streamRun(
  runtime: TuiRuntime,
  request: RunRequest,
  handlers: RunHandlers,
): Promise<void> {
  let sessionId = request.session_id ?? '';
  let runId: string | null = null;
  try {
    for await (const event of runtime.stream(request, { signal: handlers.signal })) {
      handlers.onEvent(event);
      if (endEvents.has(event.type)) return;
      if (event.type === 'session_start' && !runId) {
        sessionId = event.session_id;
        runId = await findRunId(runtime, event.session_id, request.prompt);
        if (runId) handlers.onRunId(runId);
      }
    }
  } catch (error) {
    handlers.onEvent({ type: 'error', session_id: sessionId, error: toErrorObject(error) });
    return;
  }
  // Cancelled while waiting for an answer, or failed before it could emit: the store knows how it ended.
  const run = runId ? await runtime.runs.get(runId).catch(() => null) : null;
  if (run?.status === 'failed' && run.error) {
    handlers.onEvent({ type: 'error', session_id: sessionId, error: run.error });
  } else if (run?.status === 'cancelled' || handlers.signal.aborted) {
    handlers.onEvent({ type: 'cancelled', session_id: sessionId });
  } else {
    const status = run ? ` (run ${run.id} is ${run.status})` : '';
    handlers.onEvent({
      type: 'error',
      session_id: sessionId,
      error: { code: 'SERVER_ERROR', message: `The run's stream ended without a result${status}.` },
    });
  }
}

/**
 * `stream()` yields events without the run's id. The run just started is the newest of its session with
 * this prompt; the TUI runs one at a time per session, so that is the one.
 */
async function findRunId(runtime: TuiRuntime, sessionId: string, prompt: string): Promise<string | null> {
  const runs = await runtime.runs.list({ limit: 20 }).catch(() => []);
  return runs.find((run) => run.session_id === sessionId && run.prompt === prompt.trim())?.id ?? null;
}
