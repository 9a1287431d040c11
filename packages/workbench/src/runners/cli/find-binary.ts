import { execFile } from 'node:child_process';
import { access, constants, realpath, stat } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

export type BinaryLookup = { found: true; path: string } | { found: false; reason: string };

/**
 * Where an agent's program is: `binary_path` from the runner config when set (and then only there, so a
 * wrong path is reported rather than silently replaced), else the first of `names` on PATH, else in
 * `agentsDir/node_modules/.bin` (agents installed with `npm install --prefix agentsDir`).
 */
export async function findBinary(
  names: readonly string[],
  options: { binaryPath?: string; env: NodeJS.ProcessEnv; agentsDir?: string },
): Promise<BinaryLookup> {
  if (options.binaryPath) {
    return (await isExecutable(options.binaryPath))
      ? { found: true, path: options.binaryPath }
      : { found: false, reason: `binary_path '${options.binaryPath}' is not an executable file` };
  }
  const dirs = (options.env.PATH ?? '').split(delimiter).filter(Boolean);
  if (options.agentsDir) dirs.push(join(options.agentsDir, 'node_modules', '.bin'));
  for (const dir of dirs) {
    for (const name of names) {
      const candidate = join(dir, name);
      if (await isExecutable(candidate)) return { found: true, path: candidate };
    }
  }
  const where = options.agentsDir ? `PATH or ${join(options.agentsDir, 'node_modules', '.bin')}` : 'PATH';
  return {
    found: false,
    reason: `'${names.join("' or '")}' not found on ${where}; install it or set the runner's binary_path`,
  };
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// Generous for a "short" check: a Node-based agent (Gemini CLI) takes seconds to start on a busy machine.
const versionTimeoutMs = 20_000;
// A machine too busy for the first bound is likely still busy: the one retry gets twice as long.
const retryTimeoutMs = 2 * versionTimeoutMs;

/**
 * `<binary> --version`, first version-looking token of its output; a clear reason when it fails. A run that
 * was killed or timed out is tried once more: on a busy machine a Node-based agent can miss the bound once.
 */
export async function readVersion(
  binary: string,
  env: NodeJS.ProcessEnv,
): Promise<{ version: string } | { reason: string }> {
  // A program's version changes only with its file: `GET /api/settings/check`, asked by every page load,
  // must not start every agent (seconds each, on a busy machine) each time. Concurrent askers share one
  // start; only a version is kept, so a failure is tried again next time.
  const key = await fileIdentity(binary);
  const known = key ? versions.get(key) : undefined;
  if (known) return known;
  const answer = (async () => {
    const first = await versionOnce(binary, env, versionTimeoutMs);
    return 'retry' in first ? (await versionOnce(binary, env, retryTimeoutMs)).answer : first.answer;
  })();
  if (!key) return answer;
  versions.set(key, answer);
  const settled = await answer;
  if (!('version' in settled)) versions.delete(key);
  return settled;
}

const versions = new Map<string, Promise<VersionAnswer>>();

/** The file a program resolves to, with what changes when it is replaced; undefined if it cannot be read. */
async function fileIdentity(binary: string): Promise<string | undefined> {
  try {
    const file = await realpath(binary);
    const { ino, size, mtimeMs } = await stat(file);
    return [file, ino, size, mtimeMs].join('\0');
  } catch {
    return undefined;
  }
}

type VersionAnswer = { version: string } | { reason: string };

function versionOnce(
  binary: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ answer: VersionAnswer; retry?: true }> {
  return new Promise((resolve) => {
    execFile(
      binary,
      ['--version'],
      { env, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 256 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          const failure = error as NodeJS.ErrnoException & { killed?: boolean; signal?: string | null };
          const stopped = failure.killed || failure.signal;
          const detail = stopped
            ? `it did not answer within ${timeoutMs / 1000} s (stopped by ${failure.signal ?? 'the timeout'})`
            : (String(stderr).trim().split('\n').at(-1) ?? '') || error.message;
          resolve({
            answer: { reason: `'${binary} --version' failed: ${detail}` },
            ...(stopped ? { retry: true as const } : {}),
          });
          return;
        }
        const text = `${stdout}`.trim() || `${stderr}`.trim();
        const version = /\d+\.\d+(\.\d+)?([-+.][\w.]+)?/.exec(text)?.[0] ?? text.split('\n')[0] ?? '';
        resolve({ answer: version ? { version } : { reason: `'${binary} --version' printed no version` } });
      },
    );
  });
}
