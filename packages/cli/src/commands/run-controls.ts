import { finishedStatuses, type Run, type Runtime } from '@keel/runtime';
import type { Command } from 'commander';
import { keelArgsOf, printJson, type WorkdirFlags, withRuntime, workdirOption } from '../cli-runtime.ts';
import { continueInForeground } from '../foreground-run.ts';
import type { CliIo } from '../io.ts';

interface ControlFlags extends WorkdirFlags {
  json?: boolean;
  detach?: boolean;
  verbose?: boolean;
}

/** `keel runs cancel|pause|input|resume|retry|recover|fork`: run controls, from any process. */
export function registerRunControls(runs: Command, io: CliIo): void {
  workdirOption(runs.command('cancel'))
    .description('Cancel a run, even one another process is executing')
    .argument('<run_id>')
    .option('--json', 'print the run as JSON')
    .action((runId: string, flags: ControlFlags) =>
      withRuntime(io, flags, async (runtime) => {
        const before = await runtime.runs.get(runId);
        const run = await runtime.cancelRun(runId);
        if (flags.json) printJson(io, { run });
        // An ended run is answered unchanged: say so rather than claim a cancel.
        else if (finishedStatuses.includes(before.status))
          io.out.write(`${runId} has already ended (${before.status}): nothing to cancel.\n`);
        // A running run is cancelled by the worker holding it, as soon as it sees the request.
        else
          io.out.write(
            run.status === 'running' ? `Cancel requested for ${runId}.\n` : `Cancelled ${runId}.\n`,
          );
      }),
    );

  workdirOption(runs.command('pause'))
    .description('Pause a run at its next step boundary (a queued run pauses at once)')
    .argument('<run_id>')
    .option('--json', 'print the run as JSON')
    .action((runId: string, flags: ControlFlags) =>
      withRuntime(io, flags, async (runtime) => {
        const run = await runtime.pauseRun(runId);
        if (flags.json) printJson(io, { run });
        else
          io.out.write(
            run.status === 'running'
              ? `Pause requested for ${runId}: it pauses at its next step boundary.\n`
              : `Paused ${runId}.\n`,
          );
      }),
    );

  workdirOption(runs.command('input'))
    .description("Send a running run a message: the model sees it at the run's next turn")
    .argument('<run_id>')
    .argument('<message...>')
    .option('--json', 'print the stored message as JSON')
    .action((runId: string, words: string[], flags: ControlFlags) =>
      withRuntime(io, flags, async (runtime) => {
        const input = await runtime.sendInput(runId, words.join(' '));
        if (flags.json) printJson(io, { input });
        else io.out.write(`Sent to ${runId}: the model sees it at the run's next turn.\n`);
      }),
    );

  continuing(
    runs,
    io,
    'resume',
    'Put a paused or waiting run back in the queue and continue it',
    (runtime, id) => runtime.resumeRun(id),
  );
  continuing(
    runs,
    io,
    'retry',
    'Run a failed or cancelled run again from its last checkpoint',
    (runtime, id) => runtime.retryRun(id),
  );
  continuing(
    runs,
    io,
    'recover',
    'Continue a run whose worker died, from its last checkpoint',
    (runtime, id) => runtime.recoverRun(id),
  );
  continuing(
    runs,
    io,
    'fork',
    'Start a new run from a checkpoint of any run, with the history up to it',
    (runtime, id) => runtime.forkRun(id),
    '<checkpoint_id>',
  );
}

/**
 * A control that puts a run in the queue; unless `--detach`, this process then executes it in the
 * foreground, with `keel run`'s output and exit codes.
 */
function continuing(
  runs: Command,
  io: CliIo,
  name: string,
  description: string,
  control: (runtime: Runtime, id: string) => Promise<Run>,
  argument = '<run_id>',
): void {
  workdirOption(runs.command(name))
    .description(description)
    .argument(argument)
    .option('--detach', 'only queue the run; a worker (`keel worker`) or another command continues it')
    .option('-v, --verbose', 'show thinking and full tool results')
    .option('--json', 'print events as JSON lines (with --detach: the run as JSON)')
    .action((id: string, flags: ControlFlags) =>
      withRuntime(io, flags, async (runtime) => {
        const run = await control(runtime, id);
        const keelArgs = keelArgsOf(io, flags);
        // Say which run continues: a fork is a new one.
        const what = run.forked_from ? `${run.id} (forked from ${run.forked_from.run_id})` : run.id;
        if (flags.detach) {
          if (flags.json) printJson(io, { run });
          else io.out.write(`Queued ${what}. Follow it with: keel runs watch ${run.id}${keelArgs}\n`);
          return 0;
        }
        io.err.write(`Continuing ${what}, attempt ${run.attempt}.\n`);
        return continueInForeground(runtime, run, { json: flags.json, verbose: flags.verbose, keelArgs }, io);
      }),
    );
}
