import { WorkbenchError, type WorkbenchErrorCode } from '../errors.ts';

const stderrTailLines = 20;

/**
 * Removes credentials from URLs in `text` (`https://user:token@host` → `https://***@host`, `?private_token=x`
 * → `?private_token=***`) so errors and stored remote URLs never hold them.
 */
export function redactCredentials(text: string): string {
  return text
    .replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, '$1***@')
    .replace(/([?&][\w.-]*(?:token|key|secret|passw(?:or)?d|auth|credential)[\w.-]*=)[^&#\s]+/gi, '$1***');
}

/** The last lines of git's stderr, without credentials: what a user needs to see why git failed. */
export function stderrTail(stderr: string): string {
  const lines = redactCredentials(stderr).trimEnd().split('\n');
  return lines.slice(-stderrTailLines).join('\n');
}

export interface GitFailure {
  args: readonly string[];
  cwd: string;
  stderr: string;
  exitCode: number | null;
}

/**
 * Turns a failed git command into a WorkbenchError. A repository problem on the user's side (not a repository,
 * unsafe ownership) is a 422; anything else uses the caller's code (GIT_ERROR by default).
 */
export function gitError(
  failure: GitFailure,
  what: string,
  code: WorkbenchErrorCode = 'GIT_ERROR',
): WorkbenchError {
  const stderr = stderrTail(failure.stderr);
  const details = { command: `git ${failure.args[0] ?? ''}`, exit_code: failure.exitCode, stderr };
  if (/not a git repository/i.test(failure.stderr)) {
    return new WorkbenchError('NOT_A_GIT_REPOSITORY', `${failure.cwd} is not a git repository`, details);
  }
  if (/dubious ownership/i.test(failure.stderr)) {
    const message = `git refuses to use ${failure.cwd}: it is owned by another user (see git's safe.directory)`;
    return new WorkbenchError('REPOSITORY_UNUSABLE', message, details);
  }
  // The last fatal/error line says why; hints and progress lines around it do not.
  const lines = stderr.split('\n').map((line) => line.trim());
  const reason =
    lines.findLast((line) => /^(fatal|error):/.test(line)) ?? lines.findLast((line) => line !== '');
  const message = redactCredentials(reason ? `${what}: ${reason}` : what);
  return new WorkbenchError(code, message, details);
}
