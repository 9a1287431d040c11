// `keel-web run --max-running <n>`: the real server process executes at most n of the runs POSTed to it at
// once; the rest wait queued, in the order they came, and all of them succeed with no worker.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ScriptedReply, startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';

const bin = join(import.meta.dirname, '..', 'bin', 'keel-web.js');

function heldTurn(text: string) {
  let release = () => {};
  const until = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { reply: { text, until } satisfies ScriptedReply, release };
}

describe('keel-web --max-running', () => {
  test('six runs POSTed with --max-running 2: two execute, four wait queued, each answer lets the next in', async () => {
    const turns = Array.from({ length: 6 }, (_, index) => heldTurn(`answer ${index + 1}`));
    await using model = await startMockModel({ script: turns.map((turn) => turn.reply) });
    const home = await mkdtemp(join(tmpdir(), 'keel-web-max-running-'));
    const web = spawn(process.execPath, [bin, 'run', '--port', '0', '--max-running', '2', '-w', home], {
      env: {
        ...process.env,
        RUNTIME_HOME: home,
        RUNTIME_MODEL: 'mock-model',
        RUNTIME_MODEL_BASE_URL: model.url,
      },
    });
    let output = '';
    web.stdout.on('data', (chunk) => (output += chunk));
    web.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => web.on('exit', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        web.stdout.on('data', () => {
          const match = output.match(/listening on (http:\/\/\S+)/);
          if (match) resolve(match[1]!);
        });
        web.on('exit', () => reject(new Error(`exited early: ${output}`)));
      });
      const ids: string[] = [];
      for (let index = 0; index < 6; index++) {
        const response = await fetch(`${url}/runtime/runs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ prompt: `task ${index + 1}`, workdir: home }),
        });
        expect(response.status).toBe(202);
        ids.push(((await response.json()) as { id: string }).id);
      }
      const statuses = async () =>
        Promise.all(
          ids.map(async (id) => {
            const run = (await fetch(`${url}/runtime/runs/${id}`).then((response) => response.json())) as {
              status: string;
            };
            return run.status;
          }),
        );
      await model.waitForRequests(2);
      expect((await statuses()).sort()).toEqual([
        'queued',
        'queued',
        'queued',
        'queued',
        'running',
        'running',
      ]);
      for (let index = 0; index < 4; index++) {
        turns[index]!.release();
        await model.waitForRequests(index + 3);
        const now = await statuses();
        expect(now.filter((status) => status === 'running')).toHaveLength(2);
        expect(now[index + 2]).toBe('running'); // the oldest queued run went next
      }
      turns[4]!.release();
      turns[5]!.release();
      for (const id of ids) {
        // The run's SSE stream ends with its `done` event once it has succeeded.
        const stream = await fetch(`${url}/runtime/runs/${id}/events?after=0`).then((response) =>
          response.text(),
        );
        expect(stream).toContain('"type":"done"');
      }
      expect(await statuses()).toEqual(Array(6).fill('succeeded'));
      expect(model.requests).toHaveLength(6);
    } finally {
      web.kill('SIGTERM');
      await exited;
      await rm(home, { recursive: true, force: true });
    }
  }, 60_000);

  test('a bound that is not a whole number above 0 is refused with usage help', async () => {
    const child = spawn(process.execPath, [bin, 'run', '--port', '0', '--max-running', '0']);
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain("option '--max-running <n>' argument '0' is invalid");
    expect(stderr).toContain('must be a whole number above 0');
  });
});
