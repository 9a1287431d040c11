import { stat } from 'node:fs/promises';
// The narrow subpath: the worker thread that runs git starts in milliseconds, not the second internal takes.
import { spawnGit } from '@keel/runtime/git';
import { WorkbenchError, type WorkbenchErrorCode } from '../errors.ts';
import { offLoop } from '../off-loop/index.ts';
import { gitError } from './git-error.ts';

export interface RunGitOptions {
  /** Variables added to the git environment (temporary index, identity, ...). */
  env?: Record<string, string>;
  /** Written to git's stdin. */
  input?: string;
  /** Exit codes that are answers, not failures (e.g. 1 for `diff --quiet`). Default [0]. */
  okExitCodes?: readonly number[];
  /** Kill git after this long. Default 2 minutes. */
  timeoutMs?: number;
  /** Stdout beyond this is an error, or cut off when `truncate` is set. Default 64 MiB. */
  maxStdoutBytes?: number;
  /** Stop reading (and stop git) at `maxStdoutBytes` instead of failing. */
  truncate?: boolean;
  /** What failed, for the error message ("pushing main failed"). */
  what?: string;
  /** Error code of an unexpected failure (its status comes with it). Default GIT_ERROR; a timeout GIT_TIMEOUT. */
  errorCode?: WorkbenchErrorCode;
  /**
   * Transports git may use (GIT_ALLOW_PROTOCOL). Default `file` only: the workbench's git reaches the network
   * only to push, so nothing a workspace's config names (a promisor remote, a submodule URL) is fetched.
   */
  allowProtocols?: readonly string[];
}

export interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  truncated: boolean;
}

/**
 * Runs `git args` in `cwd` through the runtime's hardened `spawnGit`; failures are WorkbenchErrors. Git is
 * started from the workbench's worker thread: starting a process holds the thread that starts it until the
 * child runs (10-58 ms a spawn on a loaded machine, once 232 ms), which on the service's event loop made
 * every other request wait (issue #44). Work that runs many git commands in a row (`diff`, the scan) runs
 * whole in the worker, where this calls git directly.
 */
export const runGit: (cwd: string, args: readonly string[], options?: RunGitOptions) => Promise<GitResult> =
  offLoop(import.meta.url, 'runGitHere', runGitHere);

/** `runGit` on the calling thread (the worker's). */
export async function runGitHere(
  cwd: string,
  args: readonly string[],
  options: RunGitOptions = {},
): Promise<GitResult> {
  const maxStdoutBytes = options.maxStdoutBytes ?? 64 * 1024 * 1024;
  const what = options.what ?? `git ${args[0] ?? ''} failed`;
  const run = await spawnGit(cwd, args, {
    ...(options.env ? { env: options.env } : {}),
    ...(options.input === undefined ? {} : { input: options.input }),
    timeoutMs: options.timeoutMs ?? 120_000,
    maxStdoutBytes,
    ...(options.allowProtocols ? { allowProtocols: options.allowProtocols } : {}),
  });
  if (run.spawnError) throw await spawnFailure(cwd, run.spawnError);
  const command = `git ${args[0] ?? ''}`;
  if (run.timedOut) {
    throw new WorkbenchError(options.errorCode ?? 'GIT_TIMEOUT', `${what}: timed out`, { command });
  }
  if (run.truncated && !options.truncate) {
    throw new WorkbenchError('GIT_ERROR', `${what}: output larger than ${maxStdoutBytes} bytes`, {
      command,
    });
  }
  const ok = options.okExitCodes ?? [0];
  if (!run.truncated && (run.code === null || !ok.includes(run.code))) {
    const failure = { args, cwd, stderr: run.stderr, exitCode: run.code };
    throw gitError(failure, what, options.errorCode);
  }
  return {
    stdout: run.stdout.toString('utf8'),
    stderr: run.stderr,
    exitCode: run.code ?? -1,
    truncated: run.truncated,
  };
}

/** A spawn error is either a missing working directory (the user's mistake) or a missing git binary. */
async function spawnFailure(cwd: string, error: NodeJS.ErrnoException): Promise<WorkbenchError> {
  const isDir = await stat(cwd).then(
    (info) => info.isDirectory(),
    () => false,
  );
  if (!isDir)
    return new WorkbenchError('NOT_A_GIT_REPOSITORY', `${cwd} does not exist or is not a directory`);
  return new WorkbenchError(
    'GIT_ERROR',
    `could not run git (${error.code ?? error.message}): is git installed?`,
  );
}
