import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { TestkitError } from '../errors.ts';

const execFileAsync = promisify(execFile);

// Ignore the machine's global and system git config so tests behave the same everywhere.
const isolatedEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

/** Run `git` in `cwd` and return its stdout; a failure throws with git's stderr in the message. */
export async function runGit(cwd: string, args: readonly string[]): Promise<string> {
  try {
    const { stdout } = await execFileAsync('git', [...args], {
      cwd,
      env: isolatedEnv,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (cause) {
    const stderr = (cause as { stderr?: string }).stderr?.trim();
    throw new TestkitError(
      'GIT_FAILED',
      `git ${args.join(' ')} failed in ${cwd}: ${stderr || String(cause)}`,
      {
        cause,
      },
    );
  }
}
