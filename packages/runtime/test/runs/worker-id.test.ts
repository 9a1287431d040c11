import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, test } from 'vitest';
import { newWorkerId, ownerIsDead, parseWorkerId } from '../../src/runs/worker-id.ts';

describe('worker ids', () => {
  test('host:pid:random, or role:host:pid:random; each runtime its own', () => {
    const plain = newWorkerId();
    expect(plain).toMatch(new RegExp(`^${hostname()}:${process.pid}:[0-9a-f]{8}$`));
    expect(newWorkerId()).not.toBe(plain);
    expect(newWorkerId('web')).toMatch(new RegExp(`^web:${hostname()}:${process.pid}:[0-9a-f]{8}$`));
    expect(() => newWorkerId('we:b')).toThrow(/worker role/);
  });

  test('parse back into role, host and pid; anything else is not a worker id', () => {
    expect(parseWorkerId('box:42:0a0b0c0d')).toEqual({ role: null, host: 'box', pid: 42 });
    expect(parseWorkerId('web:box:42:0a0b0c0d')).toEqual({ role: 'web', host: 'box', pid: 42 });
    expect(parseWorkerId('box:42')).toEqual({ role: null, host: 'box', pid: 42 });
    expect(parseWorkerId('worker-a')).toBeNull();
    expect(parseWorkerId('box:x:0a0b0c0d')).toBeNull();
    expect(parseWorkerId('a:b:c:d:e')).toBeNull();
  });

  test("a dead owner on this host is known dead, with or without a role; another host's is not", () => {
    // A process that has exited: its pid is free (and not reused in the instant this takes).
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const pid = Number(gone.stdout.toString());
    expect(ownerIsDead(`${hostname()}:${pid}:0a0b0c0d`)).toBe(true);
    expect(ownerIsDead(`web:${hostname()}:${pid}:0a0b0c0d`)).toBe(true);
    expect(ownerIsDead(newWorkerId('web'))).toBe(false);
    expect(ownerIsDead(newWorkerId())).toBe(false);
    expect(ownerIsDead(`web:elsewhere-host:${pid}:0a0b0c0d`)).toBe(false);
    expect(ownerIsDead('worker-a')).toBe(false);
    expect(ownerIsDead(null)).toBe(true);
  });
});
