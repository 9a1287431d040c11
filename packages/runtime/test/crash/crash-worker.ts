// A worker process of the crash trials (crash-trial.ts): started with `node --conditions=@keel/source`,
// it creates a runtime on the trial's store (the runtime directory's config.json names it), prints
// `ready`, and waits for one JSON line on stdin: the run to work on and, optionally, a kill point armed
// inside this process. Then it recovers the run if its last worker died, drives it whenever it is queued,
// waits while it waits for an approval (which another process gives), and exits once the run is final.
//
// Kill points armed here SIGKILL this very process at a precise instant no outside observer can hit:
// right after an event is stored (before the step's checkpoint), right after a checkpoint is saved, or
// inside a lease renewal. Kills at a random time, mid-tool and mid-stream come from the test process.
import { createInterface } from 'node:readline';
import { createRuntime, type RunStore } from '../../src/index.ts';
import { nextChange } from '../../src/runs/index.ts';

export type ArmedKill =
  | { kind: 'append'; seq: number }
  | { kind: 'checkpoint'; nth: number }
  | { kind: 'renewal'; nth: number; when: 'before' | 'after' };

export interface WorkerSetup {
  runtimeDir: string;
  workdir: string;
  modelUrl: string;
}

export interface WorkerCommand {
  runId: string;
  kill?: ArmedKill;
}

const finished = ['succeeded', 'failed', 'cancelled'];
const setup = JSON.parse(process.argv[2] ?? '{}') as WorkerSetup;
const runtime = createRuntime({
  runtimeDir: setup.runtimeDir,
  workdir: setup.workdir,
  model: 'mock-model',
  modelBaseUrl: setup.modelUrl,
  retry: { maxAttempts: 1 },
  env: {},
});
const store = await runtime.store();
const say = (message: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(message)}\n`);
say({ ready: true, pid: process.pid });

const lines = createInterface({ input: process.stdin });
let command: WorkerCommand | undefined;
for await (const line of lines) {
  command = JSON.parse(line) as WorkerCommand;
  break;
}
lines.close();
if (!command) process.exit(0);
// The test process holds stdin open: when it goes away (a timed-out test), so does this worker.
process.stdin.on('end', () => process.exit(1));
process.stdin.resume();
const { runId, kill } = command;

const die = (): never => {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable: SIGKILL');
};
if (kill) arm(store, kill);

for (;;) {
  const run = await runtime.runs.get(runId);
  if (finished.includes(run.status)) {
    say({ status: run.status });
    break;
  }
  if (run.status === 'running' && runtime.runs.isOrphaned(run)) {
    // Another process (this one) takes over a run whose worker died: back to the queue, then claim it.
    say({
      recovering: true,
      at: Date.now(),
      lease_expires_at: run.lease_expires_at,
      lease_owner: run.lease_owner,
    });
    await runtime.runs.recover(runId).catch(() => undefined);
    continue;
  }
  if (run.status === 'queued') {
    await runtime.drive(runId, {
      onEvent: (_event, seq) => {
        if (kill?.kind === 'append' && seq === kill.seq) die();
      },
    });
    continue;
  }
  // Waiting for an approval (given by another process), or running elsewhere: until it changes.
  await nextChange(store, runId, undefined, 100);
}
await runtime.close();
process.exit(0);

/** Wraps the store's checkpoint and lease calls so that the armed one kills this process. */
function arm(target: RunStore, armed: ArmedKill): void {
  let count = 0;
  if (armed.kind === 'checkpoint') {
    const save = target.saveCheckpoint.bind(target);
    target.saveCheckpoint = async (input) => {
      const checkpoint = await save(input);
      if (++count === armed.nth) die();
      return checkpoint;
    };
  }
  if (armed.kind === 'renewal') {
    const renew = target.renewLease.bind(target);
    target.renewLease = async (id, claim) => {
      const last = ++count === armed.nth;
      if (last && armed.when === 'before') die();
      const renewed = await renew(id, claim);
      if (last) die();
      return renewed;
    };
  }
}
