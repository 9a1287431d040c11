import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createRuntime, type ProjectTrust, toErrorObject } from '@keel/runtime';
import { type CheckRun, classifyCheck } from './classify-check.ts';
import { activatedVenv } from './workspace-venv.ts';

/** A check to run: a project repository's setting. */
export interface CheckSpec {
  name: string;
  command: string;
  timeout_ms: number;
}

/** One check run on a todo's changes: the command, how it ended, and the end of its output. */
import type { CheckResult } from '@keel/protocol/workbench';

export type { CheckResult };

/** How much of a check's output is kept (its end: where test runners say what failed). */
const keptOutput = 4000;

/** Runs one command at a repository's root, as the agent's own commands run there. */
export interface CommandRunner {
  run(dir: string, command: string, timeoutMs: number): Promise<CheckRun>;
}

/**
 * Commands through the runtime's `exec_command`: the same sandbox, command policy and minimal environment
 * as the agent's commands (a check is a command a repository names, so it is treated like one).
 */
export function runtimeCommandRunner(options: {
  env: NodeJS.ProcessEnv;
  runtimeDir: string;
  hiddenPaths: string[];
  /** The repositories' trust (reviewed config only): a workspace file an agent rewrote does not apply. */
  trustProjectConfig: Exclude<ProjectTrust, boolean>;
}): CommandRunner {
  return {
    async run(dir, command, timeoutMs) {
      const runtime = createRuntime({
        runtimeDir: options.runtimeDir,
        workdir: dir,
        env: options.env,
        trustProjectConfig: options.trustProjectConfig,
        unconfinedCommands: 'refuse',
        hiddenPaths: options.hiddenPaths,
        commandEnv: await activatedVenv(dir, process.env.PATH),
      });
      try {
        const text = await runtime.callTool('exec_command', { command, timeout_ms: timeoutMs }, dir);
        const exit = /Exit code: (\d+)\s*$/.exec(text);
        return { exitCode: exit ? Number(exit[1]) : null, output: text };
      } catch (error) {
        // Refused by the command policy, timed out: it did not pass, and the output says why.
        const failure = toErrorObject(error);
        return { exitCode: null, output: failure.message, ...refusal(failure) };
      } finally {
        await runtime.close().catch(() => undefined);
      }
    },
  };
}

/**
 * Why a command was not run at all, when it was refused (no edit of the code makes it run: an environment
 * problem); a timeout is not a refusal (the change may be what hangs).
 */
function refusal(failure: { code: string; details?: Record<string, unknown> }): { refused?: string } {
  if (failure.code !== 'PERMISSION_DENIED') return {};
  if (failure.details?.reason === 'no_sandbox')
    return { refused: 'no sandbox backend on this machine, and the command does more than read' };
  return { refused: 'refused by the command policy (security.allowed_commands)' };
}

/** Whether `dir` has a top-level module `name` of its own (a Python package or module, at the root or in src/). */
function ownModule(dir: string, name: string): boolean {
  if (!/^\w+$/.test(name)) return false;
  return [name, `${name}.py`, join('src', name), join('src', `${name}.py`)].some((path) =>
    existsSync(join(dir, path)),
  );
}

/** Runs `checks` in `dir`, one after the other, and records how each ended. */
export async function runChecks(
  runner: CommandRunner,
  repository: string,
  dir: string,
  checks: readonly CheckSpec[],
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of checks) {
    const started = performance.now();
    const run = await runner.run(dir, check.command, check.timeout_ms);
    const { exitCode, output } = run;
    const verdict = classifyCheck(run, { ownModule: (name) => ownModule(dir, name) });
    results.push({
      repository,
      name: check.name,
      command: check.command,
      passed: verdict.outcome === 'passed',
      outcome: verdict.outcome,
      reason: verdict.reason,
      exit_code: exitCode,
      duration_ms: Math.round(performance.now() - started),
      output: output.length > keptOutput ? `…${output.slice(-keptOutput)}` : output,
    });
  }
  return results;
}

/** The repair turn's prompt: what failed, with the end of its output. */
export function repairPrompt(failed: readonly CheckResult[], turnsLeft: number): string {
  return [
    `These checks fail after your changes. Fix the code so that they pass (${turnsLeft} more ${turnsLeft === 1 ? 'try' : 'tries'} after this one).`,
    '',
    ...failed.flatMap((result) => [
      `## ${result.repository}: ${result.name} (\`${result.command}\`, ${result.exit_code === null ? 'did not finish' : `exit code ${result.exit_code}`})`,
      '```',
      result.output.trim(),
      '```',
      '',
    ]),
  ].join('\n');
}
