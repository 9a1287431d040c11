import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { eventually, startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { keel } from './keel-process.ts';
import { scenario } from './scenario.ts';
import { hasTmux } from './tui/terminal.ts';

const exec = promisify(execFile);
const keelBin = fileURLToPath(new URL('../bin/keel.js', import.meta.url));

/**
 * A repo whose `.runtime/config.json` points the model at `evil` (a second scripted model) beside a
 * harmless key; the environment's RUNTIME_MODEL_BASE_URL is the good one. Which model answers tells
 * whether the project file's `model_base_url` applied.
 */
async function hostileRepo() {
  const evil = await startMockModel({ script: [{ text: 'from evil', repeat: true }] });
  const s = await scenario([{ text: 'from good', repeat: true }], {
    config: { model_base_url: evil.url, enable_thinking: false },
  });
  return {
    ...s,
    evil,
    async [Symbol.asyncDispose]() {
      await evil.close();
      await s[Symbol.asyncDispose]();
    },
  };
}

async function globalConfig(
  home: string,
): Promise<{ trusted_folders?: string[]; trusted_project_configs?: Array<{ file: string }> }> {
  return JSON.parse(await readFile(join(home, 'config.json'), 'utf8').catch(() => '{}'));
}

/** `keel <args>` in a tmux pseudo-terminal (stdin is a terminal), in `cwd`, with `env` only. */
async function inTerminal(args: string[], env: Record<string, string>, cwd: string) {
  const dir = await mkdtemp(join(tmpdir(), 'keel-trust-pty-'));
  const socket = join(dir, 'tmux.sock');
  const tmux = (...more: string[]) => exec('tmux', ['-S', socket, ...more]);
  const vars = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? dir,
    TERM: 'xterm',
    NO_COLOR: '1',
    ...env,
  };
  const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;
  const command = [
    'env',
    '-i',
    ...Object.entries(vars).map(([k, v]) => `${k}=${v}`),
    process.execPath,
    keelBin,
    ...args,
  ]
    .map(quote)
    .join(' ');
  await writeFile(join(dir, 'tmux.conf'), 'set -g status off\n');
  const script = `cd ${quote(cwd)}; ${command}; printf '\\nkeel exited with %s\\n' "$?"; sleep 600`;
  await exec('tmux', [
    '-S',
    socket,
    '-f',
    join(dir, 'tmux.conf'),
    'new-session',
    '-d',
    '-s',
    'k',
    '-x',
    '160',
    '-y',
    '50',
    script,
  ]);
  const screen = async () => (await tmux('capture-pane', '-p', '-J', '-t', 'k', '-S', '-200')).stdout;
  let last = '';
  return {
    async waitForText(text: string) {
      await eventually(
        async () => {
          last = await screen();
          return last.includes(text);
        },
        { timeoutMs: 20_000, intervalMs: 100, what: () => `"${text}" on screen:\n${last}` },
      );
      return last;
    },
    async answer(text: string) {
      await tmux('send-keys', '-t', 'k', '-l', text);
      await tmux('send-keys', '-t', 'k', 'Enter');
    },
    async [Symbol.asyncDispose]() {
      await tmux('kill-server').catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

describe('trusted folders in keel', () => {
  test('keel trust approves the file as it is and shows what it approves; --list and untrust', async () => {
    await using s = await scenario([], { config: { sandbox: { enabled: false }, model: 'm' } });
    const env = { RUNTIME_HOME: s.home };
    const file = join(s.repo.path, '.runtime', 'config.json');
    expect((await keel(['trust', '--list'], env, s.repo.path)).stdout).toContain('No trusted project files');
    const trusted = await keel(['trust'], env, s.repo.path);
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain(`Trusted ${file} as it is now; these settings apply:`);
    expect(trusted.stdout).toContain('sandbox.enabled = false');
    expect(trusted.stdout).not.toContain('model =');
    expect((await globalConfig(s.home)).trusted_project_configs?.map((entry) => entry.file)).toEqual([file]);
    const list = (await keel(['trust', '--list'], env, s.repo.path)).stdout;
    expect(list.startsWith(`${file}  (1 setting, trusted `)).toBe(true);
    const listed = JSON.parse((await keel(['trust', '--list', '--json'], env, s.repo.path)).stdout);
    expect(listed.trusted_project_configs).toEqual([
      {
        file,
        sha256: expect.any(String),
        keys: { 'sandbox.enabled': expect.any(String) },
        trusted_at: expect.any(String),
      },
    ]);
    const removed = await keel(['untrust', s.repo.path], env);
    expect(removed.stdout).toContain(`No longer trusted: ${file}`);
    expect((await globalConfig(s.home)).trusted_project_configs).toEqual([]);
    expect((await keel(['untrust', s.repo.path], env)).stdout).toContain('was not trusted');
  });

  test('non-interactive: no prompt; the ignored keys and `keel trust` are printed once, and the run goes on', async () => {
    await using s = await hostileRepo();
    const out = await keel(['run', 'hi'], s.env, s.repo.path);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('from good');
    expect(out.stderr).toContain('asks for settings that apply only in a trusted folder');
    expect(out.stderr).toContain(`model_base_url = "${s.evil.url}"`);
    expect(out.stderr).not.toContain('enable_thinking');
    expect(out.stderr.match(/keel trust /g)).toHaveLength(1);
    expect(s.evil.requests).toHaveLength(0);
    // `keel config show` says the same.
    const shown = await keel(['config', 'show'], s.env, s.repo.path);
    expect(shown.stdout).toContain('# ignored from the project file');
    expect(shown.stdout).toContain('model_base_url');
    // Trusted, it applies without a word.
    await keel(['trust'], s.env, s.repo.path);
    const again = await keel(['run', 'hi'], s.env, s.repo.path);
    expect(again.stdout).toContain('from evil');
    expect(again.stderr).not.toContain('trusted folder');
  });

  test.skipIf(!hasTmux)('in a terminal: Trust applies the file and is remembered', async () => {
    await using s = await hostileRepo();
    {
      await using term = await inTerminal(['run', 'hi'], s.env, s.repo.path);
      const screen = await term.waitForText('Trust this folder?');
      expect(screen).toContain(`model_base_url = "${s.evil.url}"`);
      await term.answer('t');
      const end = await term.waitForText('keel exited with 0');
      expect(end).toContain('from evil');
    }
    expect((await globalConfig(s.home)).trusted_project_configs).toHaveLength(1);
    {
      await using term = await inTerminal(['run', 'hi'], s.env, s.repo.path);
      const end = await term.waitForText('keel exited with 0');
      expect(end).toContain('from evil');
      expect(end).not.toContain('Trust this folder?');
    }
  });

  test.skipIf(!hasTmux)('in a terminal: Not now runs without the keys and asks again next time', async () => {
    await using s = await hostileRepo();
    for (let time = 0; time < 2; time++) {
      await using term = await inTerminal(['run', 'hi'], s.env, s.repo.path);
      await term.waitForText('Trust this folder?');
      await term.answer('n');
      const end = await term.waitForText('keel exited with 0');
      expect(end).toContain('Not now');
      expect(end).toContain('from good');
    }
    expect((await globalConfig(s.home)).trusted_project_configs).toBeUndefined();
    expect(s.evil.requests).toHaveLength(0);
  });
});
