import { type Run, type Runtime, toErrorObject } from '@keel/runtime';
import type { Command } from 'commander';
import { type WorkdirFlags, withRuntime, workdirOption } from '../cli-runtime.ts';
import type { CliIo } from '../io.ts';
import { positiveInt } from '../option-parsers.ts';
import { stringifyForTerminal, terminalSafe } from '../render/terminal-safe.ts';
import { truncate } from '../render/truncate.ts';
import { describe } from './descriptions.ts';
import { type HealthEndpoint, healthPort, serveHealth, WorkerHealth } from './worker-health.ts';

interface WorkerFlags extends WorkdirFlags {
  idleMs: number;
  json?: boolean;
  healthPort?: number;
  healthHost: string;
}

/** `keel worker`: executes queued runs from the store, one at a time, until stopped. */
export function registerWorker(program: Command, io: CliIo): void {
  workdirOption(program.command('worker'))
    .description(describe('worker'))
    .option('--idle-ms <ms>', 'wait between looks at an empty queue', positiveInt, 250)
    .option(
      '--json',
      'print JSON lines: started, ready and waiting (the store), taken, recovered and stopped (runs)',
    )
    .option(
      '--health-port <port>',
      'serve GET /health for a supervisor: 200 once the store answers, 503 while waiting for it (0: any free port)',
      healthPort,
    )
    .option('--health-host <host>', 'the address /health listens on', '127.0.0.1')
    .action((flags: WorkerFlags) => withRuntime(io, flags, (runtime) => work(runtime, flags, io)));
}

/**
 * The worker loop, on `runtime.work`. The first Ctrl-C or SIGTERM stops taking runs and lets the current
 * one reach its end; a second one cancels it.
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
  // Prompts and errors come from users, models and tools: printed terminal-safe.
  const report = (line: string, json: Record<string, unknown>) =>
    io.out.write(flags.json ? `${stringifyForTerminal(json)}\n` : `${terminalSafe(line)}\n`);
  // Lines about the worker itself, not a run: for programs only.
  const tell = (json: Record<string, unknown>) => {
    if (flags.json) report('', json);
  };
  const health = new WorkerHealth(runtime.workerId);
  const reachable = () => {
    if (health.reachable()) tell({ type: 'ready', worker_id: runtime.workerId });
  };
  let endpoint: HealthEndpoint | undefined;
  try {
    if (flags.healthPort !== undefined)
      endpoint = await serveHealth(health, flags.healthHost, flags.healthPort);
    io.err.write(`Worker ${runtime.workerId} is taking queued runs (Ctrl-C to stop).\n`);
    if (endpoint) io.err.write(`Health: ${endpoint.url}\n`);
    tell({ type: 'started', worker_id: runtime.workerId, health: endpoint?.url ?? null });
    // The loop says when the store is lost and back, not when it first answers: the store opening says so.
    runtime.store().then(
      () => health.connecting && reachable(),
      () => undefined,
    );
    await runtime.work({
      stop: stopTaking.signal,
      signal: cancelCurrent.signal,
      idleMs: flags.idleMs,
      onClaim: (run) => {
        reachable();
        health.started();
        current = run.id;
        report(`▶ ${run.id}  attempt ${run.attempt}  ${truncate(run.prompt.replace(/\s+/g, ' '), 60)}`, {
          type: 'taken',
          run_id: run.id,
          attempt: run.attempt,
        });
      },
      onRecover: ({ run, lostOwner, recovery }) => {
        reachable();
        const what =
          run.status === 'failed' ? 'failed it: too many recoveries' : `queued it (recovery ${recovery})`;
        io.err.write(terminalSafe(`Recovered ${run.id}: its worker ${lostOwner} is gone; ${what}.\n`));
        if (flags.json) {
          report('', {
            type: 'recovered',
            run_id: run.id,
            status: run.status,
            lost_owner: lostOwner,
            recovery,
          });
        }
      },
      onStoreUnreachable: (error, retryInMs) => {
        const { message } = toErrorObject(error);
        io.err.write(terminalSafe(`Store unreachable (${message}); trying again in ${retryInMs} ms.\n`));
        health.unreachable(message, retryInMs);
        tell({ type: 'waiting', reason: message, retry_in_ms: retryInMs });
      },
      onStoreReachable: () => {
        io.err.write('Store reachable again; taking queued runs.\n');
        reachable();
      },
      onOutcome: async ({ run, error }) => {
        health.finished();
        current = undefined;
        const pending =
          run.status === 'waiting'
            ? (await runtime.approvals.list({ run_id: run.id, status: 'pending' })).map((a) => a.id)
            : [];
        report(stoppedLine(run, error, pending), {
          type: 'stopped',
          run_id: run.id,
          status: run.status,
          ...(error ? { error: toErrorObject(error) } : {}),
          ...(pending.length ? { approvals: pending } : {}),
        });
      },
    });
    return 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await endpoint?.close();
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
