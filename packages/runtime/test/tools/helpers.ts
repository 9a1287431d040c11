import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  createCodingTools,
  createPathGuard,
  type PathGuardOptions,
  type ToolContext,
} from '../../src/tools/index.ts';

/** A temporary directory (real path), removed when disposed. */
export interface TempDir extends AsyncDisposable {
  path: string;
}

export async function tempDir(prefix = 'keel-tools-'): Promise<TempDir> {
  const path = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  return { path, [Symbol.asyncDispose]: () => rm(path, { recursive: true, force: true }) };
}

/** Writes `files` (relative path -> content) under `root`, creating directories. */
export async function writeFiles(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
  }
}

/** A tool context confined to `workdir`; `extra` adds a command policy, a sandbox, a history, an audit. */
export async function contextFor(
  workdir: string,
  options: Omit<PathGuardOptions, 'workdir'> = {},
  signal: AbortSignal = new AbortController().signal,
  extra: Partial<Pick<ToolContext, 'commands' | 'sandbox' | 'history' | 'audit'>> = {},
): Promise<ToolContext> {
  const guard = await createPathGuard({ workdir, ...options });
  return { workdir: guard.workdir, guard, signal, ...extra };
}

const tools = createCodingTools();

/** Runs a tool the way the agent does: by name, with arguments validated against its schema. */
export function runTool(ctx: ToolContext, name: string, args: unknown): Promise<string> {
  return tools.execute(name, args, ctx);
}

/** Runs git in `cwd` and answers its output; a failure throws with git's own message. */
export function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}
