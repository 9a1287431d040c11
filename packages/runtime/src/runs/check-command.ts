import { CancelledError, toErrorObject } from '../errors/index.ts';
import { runShellCommand, type ToolContext } from '../tools/index.ts';

/**
 * A gate's command, run as exec_command runs a model's (the same policy, confinement and sandbox): its exit
 * code and output. One that is refused or times out is a failed check that says why, not a failed run;
 * a cancelled run still stops.
 */
export async function runCheckCommand(
  command: string,
  ctx: ToolContext,
): Promise<{ exit_code: number | null; output: string }> {
  try {
    const outcome = await runShellCommand(ctx, { command });
    const ended = outcome.exitSignal ? `\n(killed by signal ${outcome.exitSignal})` : '';
    return { exit_code: outcome.exitCode, output: `${outcome.output}${ended}` };
  } catch (error) {
    if (error instanceof CancelledError || ctx.signal.aborted) throw error;
    return { exit_code: null, output: toErrorObject(error).message };
  }
}
