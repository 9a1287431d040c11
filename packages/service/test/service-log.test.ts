import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, test } from 'vitest';
import { createServiceLog, installErrorHandling, logServerErrors } from '../src/index.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'service-log-'));
  dirs.push(dir);
  return dir;
}

/** What a log writes to stderr, as a terminal (`isTTY`) or as a pipe. */
function stderr(isTTY = false) {
  const lines: string[] = [];
  return { isTTY, lines, write: (text: string) => lines.push(text) };
}

const fileLines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));

describe('the service log', () => {
  test('JSON lines on a pipe and in the file (mode 0600); levels below the threshold are left out', () => {
    const file = join(tempDir(), 'logs', 'service.log');
    const err = stderr();
    const log = createServiceLog({ level: 'warn', file, stderr: err });
    log.info('started', { url: 'http://127.0.0.1:1' });
    log.debug('detail');
    log.warn('knowledge layer failed', {
      project: 'prj_1',
      repository: 'api',
      layer: 'structure',
      gone: undefined,
    });
    log.error('request failed', { status: 500, msg: 'a field named like the message' });
    log.close();
    const written = fileLines(file);
    expect(written).toEqual([
      {
        time: expect.any(String),
        level: 'warn',
        msg: 'knowledge layer failed',
        project: 'prj_1',
        repository: 'api',
        layer: 'structure',
      },
      {
        time: expect.any(String),
        level: 'error',
        msg: 'request failed',
        status: 500,
        field_msg: 'a field named like the message',
      },
    ]);
    expect(err.lines.map((line) => JSON.parse(line))).toEqual(written);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(file, '..')).mode & 0o777).toBe(0o700);
  });

  test('on a terminal: one readable line each, coloured unless NO_COLOR, control characters escaped', () => {
    const hostile = 'boom\n\u001b]52;c;aGk=\u0007\u009b2J';
    const coloured = stderr(true);
    createServiceLog({ stderr: coloured, env: {} }).warn('knowledge layer failed', {
      project: 'prj_1',
      layer: 'structure',
      error: hostile,
    });
    const [line] = coloured.lines;
    expect(line).toMatch(
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the log's own colour sequences.
      /^\u001b\[2m\d\d:\d\d:\d\d\u001b\[0m \u001b\[33mWARN \u001b\[0m knowledge layer failed project=prj_1 layer=structure error="boom\\n\\u001b\]52;c;aGk=\\u0007\\x9b2J"\n$/,
    );
    const plain = stderr(true);
    createServiceLog({ stderr: plain, env: { NO_COLOR: '1' } }).info(`two\nlines\u001b[2J`, { n: 1 });
    expect(plain.lines).toEqual([
      expect.stringMatching(/^\d\d:\d\d:\d\d INFO {2}two\\x0alines\\x1b\[2J n=1\n$/),
    ]);
    // Nothing in either line acts on a terminal but the log's own colours.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the log's own colour sequences.
    const stripped = line?.replace(/\u001b\[\d+m/g, '');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
    expect(stripped).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  test('the file is rotated past its size: .1 the newest, at most `keptFiles` old files', () => {
    const file = join(tempDir(), 'logs', 'service.log');
    const log = createServiceLog({ file, stderr: stderr(), maxFileBytes: 300, keptFiles: 2 });
    for (let index = 1; index <= 12; index++) log.info('line', { index, padding: 'x'.repeat(60) });
    log.close();
    const indexes = (path: string) => fileLines(path).map((line) => line.index);
    const current = indexes(file);
    const first = indexes(`${file}.1`);
    const second = indexes(`${file}.2`);
    expect(existsSync(`${file}.3`)).toBe(false);
    // Each file under the limit, the newest lines in the current one, no line lost between the kept ones.
    for (const path of [file, `${file}.1`, `${file}.2`]) expect(statSync(path).size).toBeLessThanOrEqual(300);
    const kept = [...second, ...first, ...current];
    expect(kept).toEqual(kept.map((_, i) => (kept[0] as number) + i));
    expect(kept.at(-1)).toBe(12);
    // The oldest lines went with the file beyond `keptFiles`.
    expect(kept[0]).toBeGreaterThan(1);
    expect(statSync(`${file}.1`).mode & 0o777).toBe(0o600);
  });

  test('a log file made before with another mode becomes private', () => {
    const file = join(tempDir(), 'service.log');
    writeFileSync(file, '');
    chmodSync(file, 0o644);
    createServiceLog({ file, stderr: stderr() }).info('started');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  test('a file it cannot write is said once on stderr; stderr keeps every line', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'not-a-folder'), '');
    const err = stderr();
    const log = createServiceLog({ file: join(dir, 'not-a-folder', 'service.log'), stderr: err });
    log.info('one');
    log.info('two');
    expect(err.lines.map((line) => JSON.parse(line).msg)).toEqual([
      'one',
      'log file not written; later lines will try again',
      'two',
    ]);
  });
});

describe('answers of 500 on the service log', () => {
  test('method, path without its query, status, code, request id and cause; never the body or headers', async () => {
    const err = stderr();
    const log = createServiceLog({ stderr: err });
    const app = Fastify();
    installErrorHandling(app, {
      known: (error) =>
        (error as Error).message === 'disk full'
          ? { status: 500, error: { code: 'STORE_ERROR', message: 'The disk is full.' } }
          : undefined,
    });
    logServerErrors(app, log);
    app.post('/things/:id', async (request) => {
      throw new Error((request.body as { fail: string }).fail === 'store' ? 'disk full' : 'unexpected');
    });
    app.get('/fine', async () => ({ ok: true }));
    const secret = 'sk-very-secret';
    const store = await app.inject({
      method: 'POST',
      url: `/things/42?token=${secret}`,
      headers: { authorization: `Bearer ${secret}` },
      payload: { fail: 'store', prompt: secret },
    });
    const plain = await app.inject({ method: 'POST', url: '/things/7', payload: { fail: 'other' } });
    await app.inject({ method: 'GET', url: '/fine' });
    await app.inject({ method: 'GET', url: '/missing' });
    expect([store.statusCode, plain.statusCode]).toEqual([500, 500]);
    const lines = err.lines.map((line) => JSON.parse(line));
    expect(lines).toEqual([
      {
        time: expect.any(String),
        level: 'error',
        msg: 'request failed',
        method: 'POST',
        path: '/things/42',
        status: 500,
        // A known code's answer carries no request id: the log line does.
        request_id: expect.stringMatching(/^req-/),
        code: 'STORE_ERROR',
        error: 'disk full',
      },
      {
        time: expect.any(String),
        level: 'error',
        msg: 'request failed',
        method: 'POST',
        path: '/things/7',
        status: 500,
        request_id: plain.json().error.details.request_id,
        code: 'SERVER_ERROR',
        error: 'unexpected',
      },
    ]);
    expect(err.lines.join('')).not.toContain(secret);
    await app.close();
  });
});
