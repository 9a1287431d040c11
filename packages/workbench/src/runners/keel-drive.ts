import { finishedStatuses, type Run, type Runtime, type RuntimeEvent } from '@keel/runtime';

export interface DriveToEndOptions {
  signal: AbortSignal;
  /** Each event of the run once, in order, after it is stored. */
  onEvent: (event: RuntimeEvent) => Promise<void>;
}

/**
 * Executes a recorded run here until it is final, as `runtime.run()` does, but for a run whose id the
 * caller already holds (so the run id is known before the first event). A run that waits for an approval
 * or is paused (from `keel` in another process) is followed in the store until it can go on. Cancelling
 * `signal` cancels the run, wherever it executes.
 */
export async function driveToEnd(runtime: Runtime, runId: string, options: DriveToEndOptions): Promise<Run> {
  const { signal } = options;
  let delivered = 0;
  let cancelAsked = false;
  const deliver = async (event: RuntimeEvent, seq: number) => {
    if (seq <= delivered) return;
    delivered = seq;
    await options.onEvent(event);
  };
  for (;;) {
    for (const record of await runtime.runs.events(runId, { after: delivered })) {
      await deliver(record.event as unknown as RuntimeEvent, record.seq);
    }
    const run = await runtime.runs.get(runId);
    if (run.last_seq > delivered) continue;
    if (finishedStatuses.includes(run.status)) return run;
    if (run.status === 'queued') {
      // A run whose environment cannot be built (a broken config) is failed by the runtime: its status says so.
      await runtime.drive(runId, { signal, onEvent: deliver }).catch(() => undefined);
      continue;
    }
    if (signal.aborted && !cancelAsked) {
      cancelAsked = true;
      await runtime.cancelRun(runId).catch(() => undefined);
      continue;
    }
    await nextChange(runtime, runId, cancelAsked ? undefined : signal);
  }
}

/** Resolves when the run changes in the store, after a second at the latest, or when `signal` aborts. */
async function nextChange(runtime: Runtime, runId: string, signal: AbortSignal | undefined): Promise<void> {
  const store = await runtime.store();
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, 1000);
    const unsubscribe = store.subscribe(runId, done);
    signal?.addEventListener('abort', done, { once: true });
  });
}
