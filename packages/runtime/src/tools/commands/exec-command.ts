import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { CancelledError, TimeoutError, ToolError } from '../../errors/index.ts';
import { snapshotControlPaths, sweepNewControlPaths, sweepNotice } from '../../sandbox/index.ts';
import { displayPath } from '../display-path.ts';
import { defineTool, type ToolContext } from '../tool.ts';
import { assertConfined } from './command-confinement.ts';
import { CommandPolicy } from './command-policy.ts';
import { type CommandOutcome, runCommand } from './command-runner.ts';
import { refuseUnconfined, unconfinedRisk } from './unconfined-commands.ts';

/** Default time limit of one command. */
export const defaultCommandTimeoutMs = 120_000;
/** Longest time limit a call may ask for. */
export const maxCommandTimeoutMs = 600_000;
/** Output beyond this many characters is cut from the middle (head and tail kept). */
export const maxCommandOutputChars = 30_000;

// Models write bash (`[[ ]]`, `set -o pipefail`, brace expansion); plain sh where there is no bash.
const shell = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';
// Used when a context carries no policy of its own: the default allow-list and the built-in block list.
const defaultPolicy = new CommandPolicy();

const schema = z.object({
  command: z
    .string()
    .describe('The command line to run with bash, e.g. "npm test" or "git status && git diff --stat".'),
  timeout_ms: z
    .number()
    .int()
    .min(1000)
    .max(maxCommandTimeoutMs)
    .optional()
    .describe(`Stop the command after this many milliseconds (default ${defaultCommandTimeoutMs}).`),
  cwd: z
    .string()
    .optional()
    .describe('Directory to run in, relative to the working directory (default the working directory).'),
});

export const execCommandTool = defineTool({
  name: 'exec_command',
  traits: { kind: 'execute', readOnly: false, runsCommands: true, audit: 'command_exec' },
  description:
    'Runs a shell command (bash) and returns its output (stdout and stderr together) and exit code. ' +
    'Only allowed commands run: by default tests, builds, linters, read-only git and file inspection; ' +
    'each part of a pipeline or chain is checked. There is no terminal and stdin is empty, so commands ' +
    'must not wait for input. Long output is cut in the middle. To read or search files prefer ' +
    'read_file, grep and glob.',
  schema,
  async execute(ctx, args) {
    return formatOutcome(await runShellCommand(ctx, args));
  },
  async approvalReason(ctx, args) {
    if (ctx.unconfinedCommands !== 'ask' || typeof args.command !== 'string') return undefined;
    // A command the policy or the confinement refuses is refused with its own reason, without asking first.
    if (!(ctx.commands ?? defaultPolicy).check(args.command).allowed) return undefined;
    try {
      const cwd = typeof args.cwd === 'string' ? await ctx.guard.resolve(args.cwd, 'write') : ctx.workdir;
      await assertConfined(args.command, ctx.guard, cwd);
      const risk = await unconfinedRisk(args.command, ctx.guard, cwd);
      return risk && `the command ${risk}, and no sandbox confines commands on this machine`;
    } catch {
      return undefined;
    }
  },
});

/**
 * Runs a command line as exec_command does (the policy, confinement to the workdir, the sandbox, the time
 * limit): its outcome, whatever the exit code. Refused, cancelled or timed out, it throws.
 */
export async function runShellCommand(
  ctx: ToolContext,
  args: z.infer<typeof schema>,
): Promise<CommandOutcome> {
  const policy = ctx.commands ?? defaultPolicy;
  policy.assertAllowed(args.command);
  const cwd = args.cwd === undefined ? ctx.workdir : await ctx.guard.resolve(args.cwd, 'write');
  await assertConfined(args.command, ctx.guard, cwd);
  if (ctx.unconfinedCommands === 'refuse') {
    const risk = await unconfinedRisk(args.command, ctx.guard, cwd);
    if (risk !== undefined) refuseUnconfined(args.command, risk);
  }
  const info = await stat(cwd).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new ToolError(`cwd ${displayPath(ctx.guard, cwd)} is not an existing directory.`, {
      cwd: args.cwd,
    });
  }
  if (ctx.signal.aborted) throw new CancelledError();
  const argv = [shell, '-c', args.command];
  const timeoutMs = args.timeout_ms ?? defaultCommandTimeoutMs;
  // What the sandbox's mounts cannot forbid (a new nested `.git`, `.runtime/`, `commondir`…) is undone after.
  const control = ctx.sandbox ? await snapshotControlPaths(ctx.guard.roots) : undefined;
  let outcome: CommandOutcome;
  let removed: string[] = [];
  try {
    outcome = await runCommand({
      argv: ctx.sandbox ? await ctx.sandbox.wrap({ argv, cwd, writableRoots: ctx.guard.roots }) : argv,
      cwd,
      // The minimal environment (and security.env_allow), not the runtime's: its secrets stay out.
      env: { ...policy.environment(), ...ctx.commandEnv, ...ctx.sandbox?.environment?.() },
      timeoutMs,
      signal: ctx.signal,
      maxOutputChars: maxCommandOutputChars,
    });
  } finally {
    if (control) removed = await sweepNewControlPaths(control);
  }
  const notice = sweepNotice(removed);
  if (notice) outcome.output = `${outcome.output}${outcome.output.endsWith('\n') ? '' : '\n'}${notice}\n`;
  if (outcome.cancelled) throw new CancelledError('The command was stopped because the run was cancelled.');
  if (outcome.timedOut) {
    throw new TimeoutError(
      `The command timed out after ${timeoutMs / 1000} s and was stopped with everything it started. ` +
        `Give a larger timeout_ms (up to ${maxCommandTimeoutMs}) or a quicker command. Output so far:\n` +
        (outcome.output === '' ? '(no output)' : outcome.output),
      { timeout_ms: timeoutMs },
    );
  }
  return outcome;
}

/** What the model sees: the output, then how the command ended. */
function formatOutcome(outcome: CommandOutcome): string {
  const output = outcome.output === '' ? '(no output)' : outcome.output.replace(/\n$/, '');
  const end =
    outcome.exitCode !== null ? `Exit code: ${outcome.exitCode}` : `Killed by signal ${outcome.exitSignal}`;
  return `${output}\n\n${end}`;
}
