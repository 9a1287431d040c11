import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { keel } from './keel-process.ts';

describe('keel config and keel init', () => {
  let home: string;
  let project: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'keel-config-home-'));
    project = await mkdtemp(join(tmpdir(), 'keel-config-project-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
    await rm(project, { recursive: true, force: true });
  });
  const env = () => ({ RUNTIME_HOME: home });
  const globalFile = () => join(home, 'config.json');
  const projectFile = () => join(project, '.runtime', 'config.json');

  test('set writes typed values into the global or project file, keeping the other keys; show merges and hides secrets', async () => {
    await writeFile(
      globalFile(),
      JSON.stringify({ model: 'gpt-4.1', store: { kind: 'postgres', url: 'postgres://u:pw@db/keel' } }),
    );
    expect((await keel(['config', 'set', 'circuit_breaker.max_cost_usd', '2.5'], env())).code).toBe(0);
    expect((await keel(['config', 'set', 'security.require_approval', '["write_file"]'], env())).code).toBe(
      0,
    );
    const written = JSON.parse(await readFile(globalFile(), 'utf8'));
    expect(written).toMatchObject({
      model: 'gpt-4.1',
      circuit_breaker: { max_cost_usd: 2.5 },
      security: { require_approval: ['write_file'] },
    });

    const projectSet = await keel(['config', 'set', 'model', 'qwen-max', '--project', '-w', project], env());
    expect(projectSet).toMatchObject({ code: 0, stdout: `Set model in ${projectFile()}\n` });
    const shown = await keel(['config', 'show', '--json', '-w', project], env());
    const { config } = JSON.parse(shown.stdout);
    expect(config).toMatchObject({ model: 'qwen-max', circuit_breaker: { max_cost_usd: 2.5 } });
    expect(config.store.url).toBe('postgres://u:***@db/keel');

    expect((await keel(['config', 'set', 'model', 'null', '--project', '-w', project], env())).code).toBe(0);
    expect(JSON.parse(await readFile(projectFile(), 'utf8'))).toEqual({});
  });

  test('show says which sandbox commands run in, and how to turn it off', async () => {
    const bwrap = spawnSync('bwrap', ['--version']).status === 0;
    const text = await keel(['config', 'show', '-w', project], env());
    expect(text.stdout).toMatch(
      bwrap
        ? /^# sandbox: Commands run in the bubblewrap sandbox.*sandbox\.enabled to false/m
        : /^# sandbox: No sandbox/m,
    );
    await writeFile(globalFile(), JSON.stringify({ sandbox: { enabled: false } }));
    const { sandbox } = JSON.parse((await keel(['config', 'show', '--json', '-w', project], env())).stdout);
    expect(sandbox).toEqual({
      active: false,
      backend: null,
      network: 'none',
      reason: 'sandbox.enabled is false: commands run unconfined.',
    });
    const remote = { backend: 'remote', remote: { url: 'https://sandbox.example', token_env: 'SBX_TOKEN' } };
    await writeFile(globalFile(), JSON.stringify({ sandbox: remote }));
    expect((await keel(['config', 'show', '-w', project], env())).stdout).toMatch(
      /^# sandbox: Commands run in the remote sandbox at https:\/\/sandbox\.example\/ \(SBX_TOKEN is not set/m,
    );
  });

  test('credentials, bad names and invalid values are refused, and the file is left as it was', async () => {
    await writeFile(globalFile(), '{"model": "m"}\n');
    for (const [args, message] of [
      [['model_api_key', 'sk-123'], 'is a credential'],
      [['not a key', '1'], 'is not a setting name'],
      [['circuit_breaker.max_tokens', '"lots"'], 'circuit_breaker.max_tokens'],
    ] as const) {
      const out = await keel(['config', 'set', ...args], env());
      expect(out.code).toBe(1);
      expect(out.stderr).toContain(message);
    }
    expect(await readFile(globalFile(), 'utf8')).toBe('{"model": "m"}\n');
  });

  test('setup saves the model without a terminal when given flags, and says where the key goes', async () => {
    const out = await keel(
      ['config', 'setup', '--model', 'llama3.1', '--model-base-url', 'http://localhost:11434/v1'],
      env(),
    );
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('Saved model llama3.1 at http://localhost:11434/v1');
    expect(out.stdout).toContain('RUNTIME_MODEL_API_KEY');
    expect(JSON.parse(await readFile(globalFile(), 'utf8'))).toEqual({
      model: 'llama3.1',
      model_base_url: 'http://localhost:11434/v1',
    });
    const missing = await keel(['config', 'setup'], env());
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No model given');
  });

  test('init creates the project configuration once', async () => {
    const created = await keel(['init', '-w', project], env());
    expect(created.code).toBe(0);
    expect(created.stdout).toContain(`Created ${projectFile()}`);
    expect(JSON.parse(await readFile(projectFile(), 'utf8'))).toMatchObject({
      security: { require_approval: [] },
    });
    const again = await keel(['init', '-w', project], env());
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('exists already');
    expect((await keel(['init', '-w', project, '--force'], env())).code).toBe(0);
  });
});
