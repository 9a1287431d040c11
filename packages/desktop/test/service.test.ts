import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConfig } from '@keel/workbench';
import { afterAll, describe, expect, test } from 'vitest';
import { lastStart, workbenchBin, workbenchHome } from '../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'keel-desktop-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the workbench the shell shows', () => {
  test('its data directory is the one the workbench reads', () => {
    for (const env of [
      {},
      { WORKBENCH_HOME: '/tmp/wb' },
      { WORKBENCH_HOME: 'relative/wb' },
      { WORKBENCH_HOME: '' },
    ]) {
      expect(workbenchHome(env)).toBe(readConfig(env).home);
    }
  });

  test("its program is the workbench package's own bin", () => {
    expect(workbenchBin()).toMatch(/packages\/workbench\/bin\/keel-workbench\.js$/);
  });

  test('one already running is read from the last start the workbench logged, unless a stop followed', () => {
    const log = join(dir, 'workbench.log');
    const line = (msg: string, fields: object = {}) =>
      `${JSON.stringify({ time: 't', level: 'info', msg, ...fields })}\n`;
    const started = line('started', { url: 'http://127.0.0.1:8123', home: dir, pid: 4242 });
    writeFileSync(
      log,
      line('started', { url: 'http://127.0.0.1:1', pid: 1 }) + line('stopping') + started + line('request'),
    );
    expect(lastStart(log)).toEqual({ url: 'http://127.0.0.1:8123', pid: 4242 });
    writeFileSync(log, started + line('stopping', { signal: 'SIGTERM' }) + line('stopped'));
    expect(lastStart(log)).toBeUndefined();
    expect(lastStart(join(dir, 'none.log'))).toBeUndefined();
  });
});
