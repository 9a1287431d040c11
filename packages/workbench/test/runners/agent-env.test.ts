import { describe, expect, it } from 'vitest';
import { agentEnvironment } from '../../src/runners/agent-env.ts';

describe('agentEnvironment', () => {
  const base = {
    PATH: '/usr/bin',
    HOME: '/home/u',
    TMPDIR: '/tmp/u',
    LC_ALL: 'C.UTF-8',
    TERM: 'xterm',
    XDG_CONFIG_HOME: '/home/u/.config',
    XDG_STATE_HOME: '/home/u/.local/state',
    HTTPS_PROXY: 'http://proxy.test:3128',
    NODE_EXTRA_CA_CERTS: '/etc/corp-ca.pem',
    AWS_SECRET_ACCESS_KEY: 'secret',
    DATABASE_URL: 'postgres://u:p@db/app',
    NODE_OPTIONS: '--require /tmp/evil.js',
  };

  it('keeps where things are, the locale, the terminal and the network settings; drops the rest', () => {
    const env = agentEnvironment(base, { config: {} });
    expect(env).toMatchObject({
      PATH: '/usr/bin',
      HOME: '/home/u',
      TMPDIR: '/tmp/u',
      LC_ALL: 'C.UTF-8',
      TERM: 'xterm',
      XDG_CONFIG_HOME: '/home/u/.config',
      XDG_STATE_HOME: '/home/u/.local/state',
      HTTPS_PROXY: 'http://proxy.test:3128',
      NODE_EXTRA_CA_CERTS: '/etc/corp-ca.pem',
    });
    expect(env.AWS_SECRET_ACCESS_KEY).toBeUndefined();
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.NODE_OPTIONS).toBeUndefined();
  });

  it("a private HOME takes the user's XDG dirs away; the runner's variables, then the config's, win", () => {
    const env = agentEnvironment(base, {
      set: { HOME: '/homes/keel-runner-1', KEY: 'runner', GONE: undefined },
      config: { KEY: 'config', EXTRA: 'x' },
    });
    expect(env.HOME).toBe('/homes/keel-runner-1');
    expect(env.XDG_CONFIG_HOME).toBeUndefined();
    expect(env.XDG_STATE_HOME).toBeUndefined();
    expect(env).toMatchObject({ KEY: 'config', EXTRA: 'x' });
    expect('GONE' in env).toBe(false);
  });
});
