import { describe, expect, test } from 'vitest';
import { checkBind, HostAllowList, hostnameOf, isLoopback, OriginAllowList } from '../src/index.ts';

describe('Host names', () => {
  test('are read as URLs read them: case, brackets, a trailing dot, userinfo and junk', () => {
    expect(hostnameOf('LocalHost.:8000')).toBe('localhost');
    expect(hostnameOf('[::1]:8000')).toBe('::1');
    expect(hostnameOf('127.0.0.1')).toBe('127.0.0.1');
    expect(hostnameOf('x@127.0.0.1:80')).toBeUndefined();
    expect(hostnameOf('a b')).toBeUndefined();
    expect(hostnameOf('evil.example/path')).toBeUndefined();
    expect(hostnameOf('')).toBeUndefined();
  });

  test('loopback is the loopback names and addresses, nothing that merely looks like them', () => {
    for (const name of ['localhost', '127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      expect(isLoopback(name), name).toBe(true);
    }
    for (const name of ['localhost.evil.example', '127.0.0.1.evil.example', '10.0.0.1', '0.0.0.0', '::']) {
      expect(isLoopback(name), name).toBe(false);
    }
  });

  test('an address the connection arrived on passes; a name never does unless listed', () => {
    const hosts = new HostAllowList(['Keel.Test:8000', 'other.test']);
    expect(hosts.allows('keel.test', undefined)).toBe(true);
    expect(hosts.allows('other.test', undefined)).toBe(true);
    expect(hosts.allows('192.168.1.5', '::ffff:192.168.1.5')).toBe(true);
    expect(hosts.allows('192.168.1.6', '192.168.1.5')).toBe(false);
    expect(hosts.allows('rebind.example', '192.168.1.5')).toBe(false);
  });
});

describe('Origins', () => {
  test("the service's own origin (the Host it was asked as) and listed ones only", () => {
    const origins = new OriginAllowList(['http://localhost:3000/']);
    expect(origins.allows('http://127.0.0.1:8000', '127.0.0.1:8000')).toBe(true);
    expect(origins.allows('http://LOCALHOST:8000', 'localhost:8000')).toBe(true);
    expect(origins.allows('http://localhost:3000', '127.0.0.1:8000')).toBe(true);
    expect(origins.allows('http://localhost:8000', '127.0.0.1:8000')).toBe(false);
    expect(origins.allows('http://127.0.0.1:8001', '127.0.0.1:8000')).toBe(false);
    expect(origins.allows('null', '127.0.0.1:8000')).toBe(false);
    expect(origins.allows('file://', '127.0.0.1:8000')).toBe(false);
    expect(origins.allows('http://127.0.0.1:8000', undefined)).toBe(false);
  });
});

describe('binding', () => {
  const base = { hasKey: false, insecureNoAuth: false, service: 'svc', keyHint: 'SVC_KEY' };
  test('loopback needs nothing; beyond it a key, or an explicit and loud --insecure-no-auth', () => {
    expect(checkBind({ ...base, host: '127.0.0.1' })).toEqual({});
    expect(checkBind({ ...base, host: '[::1]' })).toEqual({});
    expect(checkBind({ ...base, host: 'localhost' })).toEqual({});
    expect(checkBind({ ...base, host: '0.0.0.0' }).refusal).toMatch(/SVC_KEY.*--insecure-no-auth/);
    expect(checkBind({ ...base, host: '::', hasKey: true })).toEqual({});
    expect(checkBind({ ...base, host: '0.0.0.0', insecureNoAuth: true }).warning).toMatch(/^WARNING/);
  });
});
