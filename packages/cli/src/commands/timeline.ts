import type { Command } from 'commander';
import { printJson, type WorkdirFlags, withRuntime, workdirOption } from '../cli-runtime.ts';
import type { CliIo } from '../io.ts';
import { formatCheckpoint, formatTimelineEntry } from '../render/records.ts';
import { describe } from './descriptions.ts';

interface JsonFlags extends WorkdirFlags {
  json?: boolean;
}

/** `keel timeline checkpoints|show`: what a run did, in time order. */
export function registerTimeline(program: Command, io: CliIo): void {
  const timeline = program.command('timeline').description(describe('timeline'));

  workdirOption(timeline.command('checkpoints'))
    .description('List a run’s checkpoints, oldest first (fork from one with keel runs fork)')
    .argument('<run_id>')
    .option('--json', 'print JSON')
    .action((runId: string, flags: JsonFlags) =>
      withRuntime(io, flags, async (runtime) => {
        // The scheduler state is large and internal: list what identifies a checkpoint.
        const checkpoints = (await runtime.runs.checkpoints(runId)).map(({ state: _state, ...rest }) => rest);
        if (flags.json) printJson(io, { checkpoints });
        else
          io.out.write(
            checkpoints.length
              ? `${checkpoints.map(formatCheckpoint).join('\n')}\n`
              : 'No checkpoints yet.\n',
          );
      }),
    );

  workdirOption(timeline.command('show'))
    .description('Show every entry of a run’s timeline: steps, checkpoints, approvals and artifacts')
    .argument('<run_id>')
    .option('--json', 'print JSON')
    .action((runId: string, flags: JsonFlags) =>
      withRuntime(io, flags, async (runtime) => {
        const timeline = await runtime.runs.timeline(runId);
        if (flags.json) printJson(io, timeline);
        else
          io.out.write(
            [
              `Run ${timeline.run.id} (${timeline.run.status})`,
              ...timeline.entries.map(formatTimelineEntry),
              '',
            ].join('\n'),
          );
      }),
    );
}
