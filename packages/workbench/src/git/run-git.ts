import { lstat, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { WorkbenchError, type WorkbenchErrorCode } from '../errors.ts';
import { gitEnv } from './git-env.ts';
import { gitError } from './git-error.ts';
import { hardenedConfig, namedCommandOverrides } from './hardened-config.ts';
import { spawnCollect } from './spawn-collect.ts';

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

/** Runs `git args` in `cwd` (never through a shell), bounding output and time; failures are WorkbenchErrors. */
export async function runGit(
  cwd: string,
  args: readonly string[],
  options: RunGitOptions = {},
): Promise<GitResult> {
  const maxStdoutBytes = options.maxStdoutBytes ?? 64 * 1024 * 1024;
  const what = options.what ?? `git ${args[0] ?? ''} failed`;
  const env = { ...(await pinnedRepository(cwd, options.env)), ...options.env };
  const config = [...hardenedConfig, ...(await namedCommandOverrides(cwd, args, env))];
  const run = await spawnCollect('git', args, {
    cwd,
    env: gitEnv(env, {
      config,
      ...(options.allowProtocols ? { allowProtocols: options.allowProtocols } : {}),
    }),
    timeoutMs: options.timeoutMs ?? 120_000,
    maxStdoutBytes,
    ...(options.input === undefined ? {} : { input: options.input }),
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

/**
 * When `cwd` holds a real `.git` folder (every workspace does), GIT_DIR and GIT_WORK_TREE name it and `cwd`
 * explicitly: the environment wins over `core.worktree` in the repository's config, which could otherwise
 * point the workbench's `add`, `read-tree -u` and `reset` at any folder of the user's.
 */
async function pinnedRepository(
  cwd: string,
  env: Record<string, string> = {},
): Promise<Record<string, string>> {
  if (env.GIT_DIR !== undefined) return {};
  const dotGit = join(resolve(cwd), '.git');
  const info = await lstat(dotGit).catch(() => null);
  return info?.isDirectory() ? { GIT_DIR: dotGit, GIT_WORK_TREE: resolve(cwd) } : {};
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
