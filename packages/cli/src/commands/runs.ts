import { setTimeout as sleep } from 'node:timers/promises';
import { createRuntime, finishedStatuses, type Run, type RunStatus, toErrorObject } from '@keel/runtime';
import { type Command, InvalidArgumentError } from 'commander';
import type { CliIo } from '../io.ts';
import { nonNegativeInt, positiveInt } from '../option-parsers.ts';
import { createEventPrinter } from '../render/event-printer.ts';
import { truncate } from '../render/truncate.ts';

const statuses: RunStatus[] = ['running', 'succeeded', 'failed', 'cancelled'];
// A running run whose heartbeat is older than this lost its process (it renews every 200 ms).
const orphanAfterMs = 10_000;
const pollMs = 150;

/** `keel runs list|watch|cancel`: runs in the store, from any process. */
export function registerRuns(program: Command, io: CliIo): void {
  const runs = program.command('runs').description('List, watch and cancel runs (from any process)');

  runs
    .command('list')
    .description('List runs, newest first')
    .option('--limit <n>', 'how many runs', positiveInt, 20)
    .option('--status <status>', `only runs in this status (${statuses.join(', ')})`, status)
    .option('--json', 'print JSON')
    .action((flags: { limit: number; status?: RunStatus; json?: boolean }) =>
      withRuntime(io, (runtime) => {
        const list = runtime.runs.list({
          limit: flags.limit,
          ...(flags.status ? { status: flags.status } : {}),
        });
        if (flags.json) io.out.write(`${JSON.stringify({ runs: list }, null, 2)}\n`);
        else io.out.write(list.length ? `${list.map(formatRun).join('\n')}\n` : 'No runs yet.\n');
      }),
    );

  runs
    .command('watch')
    .description('Print a run’s events from a cursor, then follow it live until it ends')
    .argument('<run_id>')
    .option(
      '--after <seq>',
      'start after this event sequence number (default: from the start)',
      nonNegativeInt,
      0,
    )
    .option('-v, --verbose', 'show thinking and full tool results')
    .option('--json', 'print events as JSON lines with their seq')
    .action((runId: string, flags: { after: number; verbose?: boolean; json?: boolean }) =>
      withRuntime(io, (runtime) => watch(runtime, runId, flags, io)),
    );

  runs
    .command('cancel')
    .description('Cancel a running run, even one started by another process')
    .argument('<run_id>')
    .action((runId: string) =>
      withRuntime(io, (runtime) => {
        runtime.cancelRun(runId);
        io.out.write(`Cancel requested for ${runId}.\n`);
      }),
    );
}

async function watch(
  runtime: ReturnType<typeof createRuntime>,
  runId: string,
  flags: { after: number; verbose?: boolean; json?: boolean },
  io: CliIo,
): Promise<void> {
  const print = createEventPrinter({ verbose: flags.verbose ?? false, out: io.out, err: io.err });
  let cursor = flags.after;
  for (;;) {
    // Read the run's state before its events, so no event written before the run ended is missed.
    const run = runtime.runs.get(runId);
    for (const record of runtime.runs.events(runId, { after: cursor })) {
      if (flags.json) io.out.write(`${JSON.stringify({ seq: record.seq, ...record.event })}\n`);
      else print(record.event);
      cursor = record.seq;
    }
    if (finishedStatuses.includes(run.status) && cursor >= run.last_seq) {
      io.exitCode = run.status === 'succeeded' ? 0 : 1;
      return;
    }
    if (run.heartbeat_at && Date.now() - Date.parse(run.heartbeat_at) > orphanAfterMs) {
      io.err.write(`Run ${runId} is orphaned: its process stopped without finishing it.\n`);
      io.exitCode = 1;
      return;
    }
    await sleep(pollMs);
  }
}

async function withRuntime(
  io: CliIo,
  action: (runtime: ReturnType<typeof createRuntime>) => void | Promise<void>,
): Promise<void> {
  const runtime = createRuntime({ env: io.env });
  try {
    await action(runtime);
  } catch (error) {
    const { code, message } = toErrorObject(error);
    io.err.write(`Error [${code}]: ${message}\n`);
    io.exitCode = 1;
  } finally {
    runtime.close();
  }
}

function formatRun(run: Run): string {
  return [
    run.id,
    run.status.padEnd(9),
    run.created_at.slice(0, 19).replace('T', ' '),
    truncate(run.prompt, 60),
  ].join('  ');
}

function status(value: string): RunStatus {
  if (!statuses.includes(value as RunStatus))
    throw new InvalidArgumentError(`must be one of ${statuses.join(', ')}`);
  return value as RunStatus;
}
