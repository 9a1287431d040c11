import { type Run, type Runtime, toErrorObject } from '@keel/runtime';
import type { Command } from 'commander';
import { type WorkdirFlags, withRuntime, workdirOption } from '../cli-runtime.ts';
import type { CliIo } from '../io.ts';
import { positiveInt } from '../option-parsers.ts';
import { truncate } from '../render/truncate.ts';

interface WorkerFlags extends WorkdirFlags {
  idleMs: number;
  json?: boolean;
}

/** `keel worker`: executes queued runs from the store, one at a time, until stopped. */
export function registerWorker(program: Command, io: CliIo): void {
  workdirOption(program.command('worker'))
    .description(
      'Execute queued runs from the store until Ctrl-C (start several workers to run more at once)',
    )
    .option('--idle-ms <ms>', 'wait between looks at an empty queue', positiveInt, 250)
    .option('--json', 'print one JSON line per run taken and per run stopped')
    .action((flags: WorkerFlags) => withRuntime(io, flags, (runtime) => work(runtime, flags, io)));
}

/**
 * The worker loop. It drives runs itself (`runtime.drive`, claiming atomically, oldest first) rather than
 * calling `runtime.work`, which reports nothing per run. The first Ctrl-C or SIGTERM stops taking runs and
 * lets the current one reach its end; a second one cancels it.
 */
async function work(runtime: Runtime, flags: WorkerFlags, io: CliIo): Promise<number> {
  const stopTaking = new AbortController();
  const cancelCurrent = new AbortController();
  let current: string | undefined;
  const onSignal = () => {
    if (!stopTaking.signal.aborted) {
      stopTaking.abort();
      if (current) io.err.write(`Stopping after ${current} (again to cancel it).\n`);
      return;
    }
    cancelCurrent.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const report = (line: string, json: Record<string, unknown>) =>
    io.out.write(flags.json ? `${JSON.stringify(json)}\n` : `${line}\n`);
  io.err.write(`Worker ${runtime.workerId} is taking queued runs (Ctrl-C to stop).\n`);
  try {
    while (!stopTaking.signal.aborted) {
      const next = await oldestQueued(runtime);
      if (!next) {
        await idle(flags.idleMs, stopTaking.signal);
        continue;
      }
      current = next.id;
      let took = false;
      // Announce a run once this worker holds it (its first event, or its outcome if it had none): a run
      // another worker claimed first is not announced.
      const announce = () => {
        if (took) return;
        took = true;
        report(`▶ ${next.id}  attempt ${next.attempt}  ${truncate(next.prompt.replace(/\s+/g, ' '), 60)}`, {
          type: 'taken',
          run_id: next.id,
          attempt: next.attempt,
        });
      };
      const outcome = await runtime
        .drive(next.id, {
          signal: cancelCurrent.signal,
          onEvent: () => announce(),
        })
        .catch(async (error: unknown) => ({ run: await runtime.runs.get(next.id), error }));
      current = undefined;
      if (!outcome) continue;
      announce();
      const pending =
        outcome.run.status === 'waiting'
          ? (await runtime.approvals.list({ run_id: outcome.run.id, status: 'pending' })).map((a) => a.id)
          : [];
      report(stoppedLine(outcome.run, outcome.error, pending), {
        type: 'stopped',
        run_id: outcome.run.id,
        status: outcome.run.status,
        ...(outcome.error ? { error: toErrorObject(outcome.error) } : {}),
        ...(pending.length ? { approvals: pending } : {}),
      });
    }
    return 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** The oldest queued run: the one `runtime.work` would claim next. */
async function oldestQueued(runtime: Runtime): Promise<Run | undefined> {
  const pageSize = 100;
  let oldest: Run | undefined;
  for (let before: string | undefined; ; ) {
    const page = await runtime.runs.list({
      status: 'queued',
      limit: pageSize,
      ...(before ? { before } : {}),
    });
    oldest = page.at(-1) ?? oldest;
    if (page.length < pageSize) return oldest;
    before = oldest?.id;
  }
}

const marks: Record<string, string> = {
  succeeded: '✓',
  failed: '✗',
  cancelled: '■',
  waiting: '?',
  paused: '⏸',
};

function stoppedLine(run: Run, error: unknown, approvals: string[]): string {
  let detail = '';
  if (run.status === 'failed') {
    const { code, message } = toErrorObject(error ?? run.error);
    detail = `: [${code}] ${message}`;
  }
  if (approvals.length) detail = ` for ${approvals.join(', ')} (keel approvals approve <id>)`;
  return `${marks[run.status] ?? '·'} ${run.id}  ${run.status}${detail}`;
}

function idle(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
