import { execFile } from 'node:child_process';
import { InvalidStateError } from '../errors/index.ts';

export interface GitResult {
  /** The exit code; a non-zero one is an answer here, not an error. */
  code: number;
  stdout: string;
  stderr: string;
}

const timeoutMs = 60_000;
const maxOutputBytes = 16 * 1024 * 1024;

/**
 * Runs `git args` in `cwd` without a shell, bounded in time and output. Messages are in English (LC_ALL=C)
 * and git never waits for a password. Only a git that cannot run (missing, killed, timed out) throws.
 */
export function git(cwd: string, args: readonly string[]): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...args],
      {
        cwd,
        timeout: timeoutMs,
        maxBuffer: maxOutputBytes,
        env: { ...process.env, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' },
      },
      (error, stdout, stderr) => {
        const code = (error as { code?: unknown } | null)?.code;
        if (error && typeof code !== 'number') {
          const why = error.killed ? `timed out after ${timeoutMs / 1000} s` : (code ?? error.message);
          reject(new InvalidStateError(`Could not run git in ${cwd} (${String(why)}): is git installed?`));
          return;
        }
        resolve({ code: typeof code === 'number' ? code : 0, stdout, stderr });
      },
    );
  });
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
