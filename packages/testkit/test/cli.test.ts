import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { TempDir } from '../src/index.ts';
import { createTempDir } from '../src/index.ts';
import { readJson } from './helpers.ts';

const bin = fileURLToPath(new URL('../bin/keel-mock-model.js', import.meta.url));

function startCli(args: string[]) {
  // process.execPath is the Node 24 that runs vitest.
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (data) => {
    stderr += data;
  });
  const exited = once(child, 'exit').then(([code]) => ({ code: code as number | null, stderr }));
  return { child, exited };
}

/** Resolve with the first stdout line matching `pattern`; reject if the process exits first. */
function waitForLine(
  child: ChildProcess,
  pattern: RegExp,
  exited: Promise<{ stderr: string }>,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (pattern.test(line)) resolve(line);
    });
    exited.then(({ stderr }) => reject(new Error(`CLI exited before printing ${pattern}: ${stderr}`)));
  });
}

describe('keel-mock-model CLI', () => {
  let dir: TempDir;
  let running: ChildProcess | undefined;
  afterEach(async () => {
    if (running && running.exitCode === null) running.kill('SIGKILL');
    running = undefined;
    await dir?.remove();
  });

  it('serves a script file on the printed URL and stops on SIGTERM', async () => {
    dir = await createTempDir();
    const script = join(dir.path, 'script.json');
    await writeFile(
      script,
      JSON.stringify({ replies: [{ text: 'Hi from the CLI' }], models: ['cli-model'] }),
    );
    const { child, exited } = startCli(['--script', script, '--port', '0']);
    running = child;
    const line = await waitForLine(child, /^Mock model listening on /, exited);
    const url = line.replace('Mock model listening on ', '');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);

    const models = await readJson(await fetch(`${url}/models`));
    expect(models.data.map((model: { id: string }) => model.id)).toEqual(['cli-model']);
    const completion = await fetch(`${url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'cli-model', messages: [{ role: 'user', content: 'hello' }] }),
    });
    expect((await readJson(completion)).choices[0].message.content).toBe('Hi from the CLI');

    child.kill('SIGTERM');
    expect((await exited).code).toBe(0);
  });

  it('fails with a clear message and exit code 1 on a bad script file', async () => {
    dir = await createTempDir();
    const script = join(dir.path, 'bad.json');
    await writeFile(script, JSON.stringify([{ text: 'ok' }, { toolCalls: [{ name: 'x' }] }]));
    const { code, stderr } = await startCli(['--script', script]).exited;
    expect(code).toBe(1);
    expect(stderr).toContain(`Invalid mock model script file ${script}`);
    expect(stderr).toContain('[1].toolCalls[0].arguments');
    expect(stderr).not.toMatch(/\n\s+at /);

    await writeFile(script, '{ not json');
    const notJson = await startCli(['--script', script]).exited;
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toContain('is not valid JSON');
  });

  it('rejects bad arguments and prints help', async () => {
    const badPort = await startCli(['--port', 'abc']).exited;
    expect(badPort.code).toBe(1);
    expect(badPort.stderr).toContain('--port must be an integer from 0 to 65535');
    const unknown = await startCli(['--bogus']).exited;
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('--help');

    const help = startCli(['--help']);
    const output: string[] = [];
    help.child.stdout.on('data', (data) => output.push(String(data)));
    expect((await help.exited).code).toBe(0);
    expect(output.join('')).toContain('Usage: keel-mock-model');
    for (const route of ['/v1/chat/completions', '/v1/responses', '/v1/messages', '/v1beta/models']) {
      expect(output.join('')).toContain(route);
    }
  });
});
