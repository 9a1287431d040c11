import { type Runtime, toErrorObject } from '@keel/runtime';
import type { ServiceLog } from '@keel/service';

/** Stops a watch and waits for its loop to end. */
export interface OrphanWatch {
  stop(): Promise<void>;
}

// Between two looks at the store: the loop looks for orphans every half lease, and expires approvals.
const idleMs = 1000;

/**
 * keel-web's own executor, beside the runs it is sent: it takes over every run whose worker or server
 * died (its lease ran out), as `keel worker` does (the same loop, taking no queued run), and executes it
 * here, following it to its end. So a keel-web restarted after a crash finishes the runs it held, with no
 * worker and no manual `recover`. Not started with `--queue-only`, where the workers do this.
 */
export function watchOrphans(runtime: Runtime, log?: ServiceLog): OrphanWatch {
  const stop = new AbortController();
  const loop = runtime
    .work({
      stop: stop.signal,
      orphansOnly: true,
      idleMs,
      onRecover: ({ run, lostOwner, recovery }) => {
        log?.info('run recovered', { run: run.id, lost_owner: lostOwner, recovery, status: run.status });
        // Unless a worker claims it first: it is executed here, then followed wherever it goes.
        if (run.status === 'queued') runtime.follow(run.id).catch(() => undefined);
      },
      onStoreUnreachable: (error, retryInMs) => {
        log?.warn('store unreachable', { error: toErrorObject(error).message, retry_in_ms: retryInMs });
      },
    })
    .catch((error: unknown) => {
      // A configuration error of the store: the routes that use it say so; recovery stops here.
      if (!stop.signal.aborted) {
        log?.error('orphan recovery stopped', { error: toErrorObject(error).message });
      }
    });
  return {
    stop: async () => {
      stop.abort();
      await loop;
    },
  };
}
