import { randomBytes } from 'node:crypto';
import { mkdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { RunnerKind } from '../contract.ts';

/**
 * Private home directories of agent sessions: each agent runs with its own HOME (and config dir), never the
 * user's, so it reads none of the user's settings, keys or sessions and writes nothing there. An agent keeps
 * its conversation in that home, so a resumed session must get the same one back: after a run the home is
 * indexed under the agent's session id (`index/<kind>/<id>`, a file holding the home's path).
 *
 * Homes live under `root`: the dir the caller gives, else `{os.tmpdir()}/keel-runners` (gone after a
 * reboot, and with it the ability to resume — the workbench gives a dir under WORKBENCH_HOME to keep them).
 */
export class SessionHomes {
  readonly root: string;

  constructor(root?: string) {
    this.root = resolve(root ?? join(tmpdir(), 'keel-runners'));
  }

  /** The home of `resumeSessionId` when this store made it, else a new empty one `keel-runner-<random>`. */
  async homeFor(kind: RunnerKind, resumeSessionId?: string): Promise<{ path: string; fresh: boolean }> {
    if (resumeSessionId) {
      const known = await readFile(this.#indexFile(kind, resumeSessionId), 'utf8').catch(() => undefined);
      if (known) return { path: known.trim(), fresh: false };
    }
    const path = join(this.root, `keel-runner-${randomBytes(6).toString('hex')}`);
    await mkdir(path, { recursive: true, mode: 0o700 });
    return { path, fresh: true };
  }

  /** Records that `sessionId`'s conversation lives in `home`, for the next resume. */
  async remember(kind: RunnerKind, sessionId: string, home: string): Promise<void> {
    const file = this.#indexFile(kind, sessionId);
    await mkdir(join(file, '..'), { recursive: true });
    await writeFile(file, home, { mode: 0o600 });
  }

  /** Removes a home that holds no session worth resuming (the agent failed before it had one). */
  async discard(home: string): Promise<void> {
    await rm(home, { recursive: true, force: true });
  }

  #indexFile(kind: RunnerKind, sessionId: string): string {
    // Session ids are the agents' own (UUIDs, `ses_…`); anything else is encoded so it stays one file name.
    return join(this.root, 'index', kind, encodeURIComponent(sessionId));
  }
}

/**
 * The root for Codex homes: Codex's command sandbox refuses a CODEX_HOME under the temp dir, so a root there
 * (the default one included) is replaced by `${XDG_CACHE_HOME:-$HOME/.cache}/keel/codex-homes`.
 */
export async function codexHomesRoot(root: string | undefined, env: NodeJS.ProcessEnv): Promise<string> {
  const temp = await realpath(tmpdir()).catch(() => tmpdir());
  if (root) {
    const real = await realpath(root).catch(() => resolve(root));
    const inside = relative(temp, real);
    if (inside.startsWith('..') || isAbsolute(inside)) return root;
  }
  const cache = env.XDG_CACHE_HOME || join(env.HOME || tmpdir(), '.cache');
  return join(cache, 'keel', 'codex-homes');
}
