// The model key and the web API key never come back out of any surface of the runtime: not in what the
// SDK returns, what `keel` and `keel tui` print, what `keel-web` answers or logs, nor in any file the
// runtime writes (config, the SQLite store, checkpoints, artifacts, memory, logs). Both keys come from
// the environment, so no file should hold them at all. The workbench has its own test
// (packages/workbench/test/settings/secrets-stay-out.test.ts).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRuntime } from '@keel/runtime';
import { eventually } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { keel } from '../../cli/test/keel-process.ts';
import { scenario } from '../../cli/test/scenario.ts';
import { hasTmux, startTui } from '../../cli/test/tui/terminal.ts';

const modelKey = 'sk-LEAKCHECK-model-3e9a51d0';
const authKey = 'LEAKCHECK-auth-8f2b6c47';
const keelWeb = join(import.meta.dirname, '..', '..', 'server', 'bin', 'keel-web.js');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '.git' ? [] : filesUnder(path);
    return entry.isFile() ? [path] : [];
  });
}

/** `keel-web run` as a user starts it; its stdout and stderr are kept, as a log would be. */
async function startKeelWeb(env: Record<string, string>, workdir: string) {
  const child = spawn(process.execPath, [keelWeb, 'run', '--port', '0', '-w', workdir], {
    env: { PATH: process.env.PATH ?? '', HOME: env.RUNTIME_HOME ?? '', ...env },
  });
  let log = '';
  child.stdout.on('data', (chunk) => (log += chunk));
  child.stderr.on('data', (chunk) => (log += chunk));
  const url = await eventually(() => log.match(/listening on (http:\/\/\S+)/)?.[1], { timeoutMs: 15_000 });
  return {
    url,
    log: () => log,
    stop: () => new Promise((resolve) => child.once('exit', resolve).kill('SIGTERM')),
  };
}

describe('secrets stay out of every surface of the runtime', () => {
  test('model key and API key: in no output, no response, no log and no file', {
    timeout: 180_000,
  }, async () => {
    const replies = Array.from({ length: 12 }, () => ({ text: 'All done.' }));
    await using s = await scenario(
      [
        { toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] },
        { when: { lastRole: 'tool' as const }, text: 'Read it.' },
        ...replies,
      ],
      { files: { 'README.md': '# hello\n' } },
    );
    const env = { ...s.env, RUNTIME_MODEL_API_KEY: modelKey, RUNTIME_AUTH_API_KEY: authKey };
    const seen: string[] = [];

    // The SDK: a run, its record, its events, the configuration it resolved.
    const runtime = createRuntime({ env, workdir: s.repo.path });
    const result = await runtime.run({ prompt: 'read the readme' });
    seen.push(JSON.stringify(result), JSON.stringify(await runtime.runs.list()));
    for await (const record of runtime.runs.watch(result.run_id ?? (result as { id?: string }).id ?? '', {
      after: 0,
    })) {
      seen.push(JSON.stringify(record));
    }
    await runtime.close();

    // The command line: a run, its listing and detail, the configuration shown.
    for (const args of [
      ['run', 'say done', '-w', s.repo.path],
      ['run', 'say done', '-w', s.repo.path, '--json'],
      ['runs', 'list', '-w', s.repo.path],
      ['config', 'show', '-w', s.repo.path],
      ['config', 'show', '-w', s.repo.path, '--json'],
    ]) {
      const out = await keel(args, env, s.repo.path);
      seen.push(out.stdout, out.stderr);
    }

    // The web server with authentication on: every reading endpoint, a run, its events and the audit.
    const web = await startKeelWeb(env, s.repo.path);
    const auth = { authorization: `Bearer ${authKey}` };
    const get = async (path: string, init: RequestInit = {}) => {
      const response = await fetch(`${web.url}${path}`, { ...init, headers: { ...auth, ...init.headers } });
      const text = await response.text();
      seen.push(text);
      return text;
    };
    const started = JSON.parse(
      await get('/run', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'hi', workdir: s.repo.path }),
      }),
    );
    for (const path of [
      '/health',
      '/config',
      '/config/status',
      '/runtime/runs',
      '/sessions',
      '/skills',
      '/metrics',
      '/audit',
      '/runtime/audit',
      '/console/info',
      '/docs/json',
    ]) {
      await get(path);
    }
    if (started.run_id) {
      await get(`/runtime/runs/${started.run_id}`);
      await get(`/runtime/runs/${started.run_id}/timeline`);
      await get(`/runtime/runs/${started.run_id}/checkpoints`);
      await get(`/runtime/runs/${started.run_id}/artifacts`);
    }
    await get('/runtime/runs', { headers: { authorization: 'Bearer wrong' } });
    await web.stop();
    seen.push(web.log());

    // The terminal UI, where tmux can drive it.
    if (hasTmux) {
      await using tui = await startTui(['-w', s.repo.path], env);
      await tui.waitForText('/help lists commands');
      await tui.submit('say done');
      seen.push(await tui.waitFor((screen) => screen.includes('All done.'), 'the answer'));
      await tui.submit('/config');
      seen.push(await tui.screen());
    }

    expect(seen.length).toBeGreaterThan(20);
    for (const text of seen) {
      expect(text).not.toContain(modelKey);
      expect(text).not.toContain(authKey);
    }
    const files = [...filesUnder(s.home), ...filesUnder(s.repo.path)];
    expect(files.some((file) => file.endsWith('.db') || file.includes('sqlite'))).toBe(true);
    const holding = files.filter((file) => {
      const bytes = readFileSync(file);
      return bytes.includes(modelKey) || bytes.includes(authKey);
    });
    expect(holding).toEqual([]);
  });
});
