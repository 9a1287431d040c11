import { execFile } from 'node:child_process';
import { access, constants, mkdir, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The real agents the tests run, pinned. */
export const agentPackages = {
  codex: { spec: '@openai/codex@0.169.0', bin: 'codex' },
  opencode: { spec: 'opencode-ai@1.18.33', bin: 'opencode' },
  'claude-code': { spec: '@anthropic-ai/claude-code@2.1.330', bin: 'claude' },
  gemini: { spec: '@google/gemini-cli@0.61.0', bin: 'gemini' },
} as const;
export type AgentName = keyof typeof agentPackages;

/**
 * Shared between runs, test files and clones of the repository: installed once, reused while the pinned
 * version stays. In the user's cache directory, never under the temp folder: Codex's sandbox cannot write
 * files when its own program lives under /tmp (apply_patch fails with "Failed to write file"), and a clone
 * of this repository may well be there.
 */
export const agentsCacheDir = join(
  process.env.XDG_CACHE_HOME || join(homedir(), '.cache'),
  'keel',
  'test-agents',
);

/**
 * The install prefix of one pinned agent (its program at `<prefix>/node_modules/.bin/<bin>`), installing it
 * from npm when missing. Each agent has its own prefix, installed into a scratch dir and renamed into place,
 * so test files that install different agents at once never share an npm prefix, and a half-done install is
 * never mistaken for a finished one (the check is only: is the program there). No network: this throws,
 * and the test fails saying so.
 */
export async function ensureAgent(name: AgentName): Promise<string> {
  const { spec, bin } = agentPackages[name];
  const prefix = agentPrefix(name);
  if (await isExecutable(join(prefix, 'node_modules', '.bin', bin))) return prefix;
  const scratch = `${prefix}.installing-${process.pid}-${Date.now()}`;
  await mkdir(scratch, { recursive: true });
  try {
    await run('npm', ['install', '--prefix', scratch, '--no-audit', '--no-fund', '--save-exact', spec], {
      timeout: 540_000,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(
      `Installing ${spec} from npm failed (no network?): ${
        String(stderr ?? '')
          .trim()
          .split('\n')
          .slice(-5)
          .join('\n') || message
      }`,
    );
  }
  if (!(await isExecutable(join(scratch, 'node_modules', '.bin', bin)))) {
    await rm(scratch, { recursive: true, force: true });
    throw new Error(`Installing ${spec} left no ${bin} program in node_modules/.bin.`);
  }
  try {
    await rename(scratch, prefix);
  } catch {
    // Another run finished first: use its copy.
    await rm(scratch, { recursive: true, force: true });
  }
  return prefix;
}

/** Where `ensureAgent` installs the pinned agent (whether or not it is there yet). */
export function agentPrefix(name: AgentName): string {
  return join(agentsCacheDir, agentPackages[name].spec.replace(/[@/]/g, '_'));
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
