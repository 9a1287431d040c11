import { InvalidStateError } from '../errors/index.ts';
import { spawnGit } from '../git/index.ts';

export interface GitResult {
  /** The exit code; a non-zero one is an answer here, not an error. */
  code: number;
  stdout: string;
  stderr: string;
}

const timeoutMs = 60_000;
const maxOutputBytes = 16 * 1024 * 1024;

/**
 * Runs `git args` in `cwd` through the hardened `spawnGit` (a project's repository picks no program:
 * no hook, fsmonitor or filter runs), bounded in time and output; messages are in English and git never
 * waits for a password. Only a git that cannot run (missing, killed, timed out) throws.
 */
export async function git(cwd: string, args: readonly string[]): Promise<GitResult> {
  const run = await spawnGit(cwd, args, { timeoutMs, maxStdoutBytes: maxOutputBytes });
  const why = run.spawnError
    ? (run.spawnError.code ?? run.spawnError.message)
    : run.timedOut
      ? `timed out after ${timeoutMs / 1000} s`
      : run.truncated
        ? `output over ${maxOutputBytes} bytes`
        : run.code === null
          ? 'killed'
          : undefined;
  if (why) throw new InvalidStateError(`Could not run git in ${cwd} (${why}): is git installed?`);
  return { code: run.code ?? 0, stdout: run.stdout.toString('utf8'), stderr: run.stderr };
}

/** A failed git command as an INVALID_STATE error with git's own reason (its last `fatal:`/`error:` line). */
export function gitFailure(
  what: string,
  result: GitResult,
  details: Record<string, unknown> = {},
): InvalidStateError {
  const lines = result.stderr
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const reason =
    lines.findLast((line) => /^(fatal|error):/.test(line)) ?? lines.at(-1) ?? `exit ${result.code}`;
  return new InvalidStateError(`${what}: ${reason}`, { ...details, git_stderr: lines.slice(-20).join('\n') });
}
