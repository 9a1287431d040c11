// Issue #40, item 3: keel-web logs its start and stop, every run it executed that failed, and every answer of 500 (method, path, request id,
// code, cause: never the request's body, headers or key), to stderr and {RUNTIME_HOME}/logs/keel-web.log.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, lockedStoreError, startMockModel, writeWhileLocked } from '@keel/testkit';
import { afterEach, describe, expect, test } from 'vitest';

const bin = join(import.meta.dirname, '..', 'bin', 'keel-web.js');

// biome-ignore lint/suspicious/noExplicitAny: log lines are checked by the assertions, not by types
type Line = any;

const jsonLines = (text: string): Line[] =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));

/** `keel-web run …` with stdout and stderr collected apart (stderr is a pipe: JSON lines). */
function run(args: string[], env: Record<string, string | undefined>) {
  const child = spawn(process.execPath, [bin, 'run', '--port', '0', ...args], {
    env: { ...process.env, RUNTIME_LOG_LEVEL: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk) => (out.stdout += chunk));
  child.stderr?.on('data', (chunk) => (out.stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  started.add(child);
  void exited.then(() => started.delete(child));
  return { child, out, exited };
}

// A test that fails before it stops its service leaves none running.
const started = new Set<ChildProcess>();
afterEach(() => {
  for (const child of started) child.kill('SIGKILL');
});

describe('the keel-web service log', () => {
  test('an answer of 500 is one error line with method, path, status, code and request id, without the body, query or key', async () => {
    const home = await mkdtemp(join(tmpdir(), 'keel-web-log-'));
    await using model = await startMockModel({ script: [{ text: 'one' }] });
    const key = 'sk-keel-web-log-key-4711';
    const secret = 'the prompt nobody may read 0815';
    const service = run(['-w', home], {
      RUNTIME_HOME: home,
      RUNTIME_MODEL: 'mock-model',
      RUNTIME_MODEL_BASE_URL: model.url,
      RUNTIME_AUTH_API_KEY: key,
    });
    const file = join(home, 'logs', 'keel-web.log');
    try {
      const base = await eventually(() => /listening on (http:\/\/\S+)/.exec(service.out.stdout)?.[1], {
        what: `keel-web to listen (stderr: ${service.out.stderr})`,
        timeoutMs: 20_000,
      });
      const call = (method: string, path: string, body?: unknown) =>
        fetch(`${base}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${key}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }).then(async (response) => ({ status: response.status, body: (await response.json()) as Line }));
      // The store exists once something read it.
      expect((await call('GET', '/runtime/runs')).status).toBe(200);
      const { answer } = await writeWhileLocked(join(home, 'keel.db'), () =>
        call('POST', `/runtime/runs?note=${secret.replaceAll(' ', '+')}`, { prompt: secret, workdir: home }),
      );
      expect([answer.status, answer.body.error]).toMatchObject([500, lockedStoreError]);
      const failed = (lines: Line[]) => lines.filter((line) => line.msg === 'request failed');
      const line = await eventually(() => failed(jsonLines(service.out.stderr))[0], {
        what: 'the 500 on stderr',
      });
      expect(line).toEqual({
        time: expect.any(String),
        level: 'error',
        msg: 'request failed',
        method: 'POST',
        path: '/runtime/runs',
        status: 500,
        request_id: expect.stringMatching(/^req-/),
        code: 'STORE_ERROR',
        error: answer.body.error.message,
      });
      expect(failed(jsonLines(service.out.stderr))).toHaveLength(1);
      // The file is written after stderr.
      await eventually(() => failed(jsonLines(readFileSync(file, 'utf8'))).length === 1, {
        what: 'the 500 in the log file',
      });
      expect(failed(jsonLines(readFileSync(file, 'utf8')))).toEqual([line]);
      expect(jsonLines(service.out.stderr)[0]).toMatchObject({
        msg: 'started',
        url: base,
        runtime_dir: home,
        workdir: home,
        log_file: file,
      });
      for (const text of [service.out.stderr, readFileSync(file, 'utf8')]) {
        expect(text).not.toContain('nobody may read');
        expect(text).not.toContain(key);
      }
    } finally {
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
      await rm(home, { recursive: true, force: true });
    }
  }, 30_000);

  test('a run keel-web executed and that failed is one warn line with its ids and why', async () => {
    const home = await mkdtemp(join(tmpdir(), 'keel-web-log-run-'));
    await using model = await startMockModel({
      script: [{ error: { status: 400, message: 'no such thing' } }],
    });
    const service = run(['-w', home], {
      RUNTIME_HOME: home,
      RUNTIME_MODEL: 'mock-model',
      RUNTIME_MODEL_BASE_URL: model.url,
    });
    try {
      const base = await eventually(() => /listening on (http:\/\/\S+)/.exec(service.out.stdout)?.[1], {
        what: `keel-web to listen (stderr: ${service.out.stderr})`,
        timeoutMs: 20_000,
      });
      const answer = await fetch(`${base}/runtime/runs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'fail please', workdir: home }),
      });
      const created = (await answer.json()) as Line;
      const line = await eventually(
        () => jsonLines(service.out.stderr).find((entry) => entry.msg === 'run failed'),
        { what: `the failed run on stderr (${service.out.stderr})`, timeoutMs: 20_000 },
      );
      expect(line).toMatchObject({
        level: 'warn',
        run: created.id,
        session: expect.any(String),
        code: 'MODEL_ERROR',
        error: expect.stringContaining('no such thing'),
      });
      // The file is written after stderr: wait for the same line there.
      await eventually(
        () =>
          jsonLines(readFileSync(join(home, 'logs', 'keel-web.log'), 'utf8')).some(
            (entry) => entry.msg === 'run failed' && entry.run === line.run,
          ),
        { what: 'the failed run in the log file' },
      );
    } finally {
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
      await rm(home, { recursive: true, force: true });
    }
  }, 60_000);

  test('RUNTIME_LOG_LEVEL that is not a level is refused naming the allowed ones; error leaves info out', async () => {
    const home = await mkdtemp(join(tmpdir(), 'keel-web-log-level-'));
    try {
      const bad = run(['-w', home], { RUNTIME_HOME: home, RUNTIME_LOG_LEVEL: 'chatty' });
      expect(await bad.exited).toBe(1);
      expect(bad.out.stderr).toContain("value 'chatty' from env 'RUNTIME_LOG_LEVEL' is invalid");
      expect(bad.out.stderr).toContain('Allowed choices are error, warn, info, debug.');
      const quiet = run(['-w', home, '--log-level', 'error'], { RUNTIME_HOME: home });
      await eventually(() => quiet.out.stdout.includes('listening on'), { what: 'keel-web to listen' });
      quiet.child.kill('SIGTERM');
      expect(await quiet.exited).toBe(0);
      expect(jsonLines(quiet.out.stderr)).toEqual([]);
      expect(existsSync(join(home, 'logs', 'keel-web.log'))).toBe(false);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
