import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const bin = join(import.meta.dirname, '..', 'bin', 'keel-web.js');

describe('keel-web', () => {
  test('run --port 0 serves on a free port, says where, and stops cleanly on SIGTERM', async () => {
    const home = await mkdtemp(join(tmpdir(), 'keel-web-bin-'));
    try {
      const child = spawn(process.execPath, [bin, 'run', '--port', '0', '-w', home], {
        env: { ...process.env, RUNTIME_HOME: home },
      });
      let stdout = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', () => {
          const match = stdout.match(/listening on (http:\/\/\S+)/);
          if (match) resolve(match[1]!);
        });
        child.on('exit', () => reject(new Error(`exited early: ${stdout}`)));
      });
      const health = await fetch(`${url}/health`).then((response) => response.json());
      expect(health).toMatchObject({ status: 'ok', version: '0.1.0' });
      const runs = await fetch(`${url}/runtime/runs`).then((response) => response.json());
      expect(runs).toEqual({ runs: [], next_cursor: null });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  test('beyond loopback it refuses to start without a key, saying how to set one', async () => {
    const child = spawn(process.execPath, [bin, 'run', '--port', '0', '--host', '0.0.0.0'], {
      env: { ...process.env, RUNTIME_AUTH_API_KEY: '' },
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('Refusing to listen on 0.0.0.0 without an API key');
    expect(stderr).toContain('RUNTIME_AUTH_API_KEY');
    expect(stderr).toContain('--insecure-no-auth');
  });

  test('a bad port is refused with usage help', async () => {
    const child = spawn(process.execPath, [bin, 'run', '--port', 'eighty']);
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain("option '-p, --port <port>' argument 'eighty' is invalid");
  });
});
