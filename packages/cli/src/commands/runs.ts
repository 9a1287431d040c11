import { type RunStatus, runStatuses } from '@keel/runtime';
import type { Command } from 'commander';
import { keelArgsOf, printJson, type WorkdirFlags, withRuntime, workdirOption } from '../cli-runtime.ts';
import { followRun, orphanMessage } from '../follow-run.ts';
import { interruptSignal } from '../interrupt.ts';
import type { CliIo } from '../io.ts';
import { nonNegativeInt, oneOf, positiveInt } from '../option-parsers.ts';
import { formatMetrics, formatRun, formatRunDetail } from '../render/records.ts';
import { describe } from './descriptions.ts';
import { registerRunControls } from './run-controls.ts';
import { formatStepWorkers } from './step-workers.ts';

interface JsonFlags extends WorkdirFlags {
  json?: boolean;
}

/** `keel runs …`: runs in the store, from any process. */
export function registerRuns(program: Command, io: CliIo): void {
  const runs = program.command('runs').description(describe('runs'));

  workdirOption(runs.command('list'))
    .description('List runs, newest first')
    .option('--limit <n>', 'how many runs', positiveInt, 20)
    .option('--status <status>', `only runs in this status (${runStatuses.join(', ')})`, oneOf(runStatuses))
    .option('--parent <run_id>', 'only the sub-agent runs this run spawned')
    .option('--json', 'print JSON')
    .action((flags: JsonFlags & { limit: number; status?: RunStatus; parent?: string }) =>
      withRuntime(io, flags, async (runtime) => {
        const list = await runtime.runs.list({
          limit: flags.limit,
          ...(flags.status ? { status: flags.status } : {}),
          ...(flags.parent ? { parent_run_id: flags.parent } : {}),
        });
        if (flags.json) printJson(io, { runs: list });
        else io.out.write(list.length ? `${list.map(formatRun).join('\n')}\n` : 'No runs yet.\n');
      }),
    );

  workdirOption(runs.command('show'))
    .description('Show a run and its steps')
    .argument('<run_id>')
    .option('--json', 'print JSON')
    .action((runId: string, flags: JsonFlags) =>
      withRuntime(io, flags, async (runtime) => {
        const run = await runtime.runs.get(runId);
        const steps = await runtime.runs.steps(runId);
        if (flags.json) printJson(io, { run, steps });
        else {
          const workers = formatStepWorkers(steps);
          io.out.write(`${formatRunDetail(run, steps)}\n${workers ? `\n${workers}\n` : ''}`);
        }
      }),
    );

  workdirOption(runs.command('watch'))
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
    .action((runId: string, flags: JsonFlags & { after: number; verbose?: boolean }) =>
      withRuntime(io, flags, async (runtime) => {
        using interrupt = interruptSignal();
        const keelArgs = keelArgsOf(io, flags);
        const followed = await followRun(
          runtime,
          runId,
          {
            after: flags.after,
            json: flags.json,
            verbose: flags.verbose,
            keelArgs,
            signal: interrupt.signal,
          },
          io,
        );
        if (followed.end === 'interrupted') return 130;
        if (followed.end === 'orphaned') {
          io.err.write(`${orphanMessage(followed.run, keelArgs)}\n`);
          return 1;
        }
        return followed.run.status === 'succeeded' ? 0 : 1;
      }),
    );

  workdirOption(runs.command('metrics'))
    .description('Duration, usage, retries, tools, gates and artifacts of a run')
    .argument('<run_id>')
    .option('--json', 'print JSON')
    .action((runId: string, flags: JsonFlags) =>
      withRuntime(io, flags, async (runtime) => {
        const metrics = await runtime.runs.metrics(runId);
        if (flags.json) printJson(io, metrics);
        else io.out.write(`${formatMetrics(metrics)}\n`);
      }),
    );

  registerRunControls(runs, io);
}
