import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { eventually } from '@keel/testkit';

const keelBin = fileURLToPath(new URL('../bin/keel.js', import.meta.url));

export interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts the real `keel` executable, as a user would; output is collected as it comes. */
export function startKeel(args: string[], env: Record<string, string> = {}, cwd?: string) {
  const child = spawn(process.execPath, [keelBin, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...env },
    ...(cwd ? { cwd } : {}),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => (output.stdout += chunk));
  child.stderr.on('data', (chunk) => (output.stderr += chunk));
  const done = new Promise<Outcome>((resolve) => child.on('close', (code) => resolve({ code, ...output })));
  return { child, output, done };
}

/** Runs `keel` to the end. */
export function keel(args: string[], env: Record<string, string> = {}, cwd?: string): Promise<Outcome> {
  return startKeel(args, env, cwd).done;
}

/**
 * `eventually` from @keel/testkit with this suite's pace: polls `check` every 100 ms until it answers a
 * truthy value (15 s at most); each try may spawn a `keel` process.
 */
export function waitFor<T>(check: () => Promise<T> | T, timeoutMs = 15_000) {
  return eventually(check, { timeoutMs, intervalMs: 100 });
}

/** Parses JSON-lines output (`--json` event streams). */
export function jsonLines<T = Record<string, unknown>>(text: string): T[] {
  return text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);
}

/** Runs `keel … --json` and parses its one JSON document; fails with stderr when keel fails. */
export async function keelJson<T>(args: string[], env: Record<string, string>, cwd?: string): Promise<T> {
  const out = await keel([...args, '--json'], env, cwd);
  if (out.code !== 0) throw new Error(`keel ${args.join(' ')} exited ${out.code}: ${out.stderr}`);
  return JSON.parse(out.stdout) as T;
}
