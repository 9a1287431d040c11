import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { ask, claimInstance, instanceSocketPath } from '../src/instance/index.ts';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});
const newHome = () => {
  const home = mkdtempSync(join(tmpdir(), 'keel-desktop-'));
  homes.push(home);
  return home;
};

function rawExchange(path: string, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(path, () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('close', () => resolve(answer));
  });
}

describe('one instance per data directory', () => {
  test('the first listens on a socket only its user can reach; the second is answered by it', async () => {
    const path = instanceSocketPath(newHome());
    const asked: unknown[] = [];
    const first = await claimInstance(path, { type: 'focus' }, async (request) => {
      asked.push(request);
      return { ok: true, pid: 42 };
    });
    expect(first.first).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(path, '..')).mode & 0o777).toBe(0o700);
    const second = await claimInstance(path, { type: 'focus', task_id: 'task_1' }, async () => ({
      ok: false,
    }));
    expect(second).toEqual({ first: false, answer: { ok: true, pid: 42 } });
    expect(asked).toEqual([{ type: 'focus', task_id: 'task_1' }]);
    if (first.first) first.server.close();
  });

  test('anything but a known request is refused and handled by nobody', async () => {
    const path = instanceSocketPath(newHome());
    const asked: unknown[] = [];
    const first = await claimInstance(path, { type: 'focus' }, async (request) => {
      asked.push(request);
      return { ok: true };
    });
    for (const text of [
      '{"type":"eval","code":"1"}\n',
      '{"type":"focus","task_id":"../../etc"}\n',
      'not json\n',
    ]) {
      expect(JSON.parse(await rawExchange(path, text))).toEqual({ ok: false, error: 'unknown request' });
    }
    // A line that never ends is cut off, not buffered without bound.
    expect(await rawExchange(path, 'x'.repeat(10_000))).toBe('');
    expect(asked).toEqual([]);
    if (first.first) first.server.close();
  });

  test("a dead instance's socket file is taken over", async () => {
    const path = instanceSocketPath(newHome());
    await claimInstance(path, { type: 'focus' }, async () => ({ ok: true })).then((claim) => {
      if (claim.first) claim.server.close();
    });
    // A process killed with -9 leaves its socket file behind, with nobody listening (`close()` would remove it).
    const dead = spawn(process.execPath, [
      '-e',
      `require('net').createServer().listen(${JSON.stringify(path)}, () => console.log('up'))`,
    ]);
    await new Promise((resolve) => dead.stdout.once('data', resolve));
    dead.kill('SIGKILL');
    await new Promise((resolve) => dead.once('exit', resolve));
    expect(existsSync(path)).toBe(true);
    expect(await ask(path, { type: 'focus' })).toBe('refused');
    const next = await claimInstance(path, { type: 'focus' }, async () => ({ ok: true }));
    expect(next.first).toBe(true);
    if (next.first) next.server.close();
  });

  test('a home too long for a socket path gets a private one in the temporary directory', () => {
    const path = instanceSocketPath(`/tmp/${'long-folder-name/'.repeat(10)}home`);
    expect(path.startsWith(join(tmpdir(), 'keel-desktop-'))).toBe(true);
    expect(Buffer.byteLength(path)).toBeLessThanOrEqual(100);
  });
});
