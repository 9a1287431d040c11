// Commands get a minimal environment (issue #22): the runtime's database URLs, tokens and other secrets,
// whatever their names, never reach a command; what the configuration allows (security.env_allow) does.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSandbox, findExecutable } from '../../../src/sandbox/index.ts';
import { createCommandPolicy } from '../../../src/tools/index.ts';
import { contextFor, runTool, type TempDir, tempDir } from '../helpers.ts';

const bwrap = await findExecutable('bwrap', process.env.PATH ?? '');

const planted: Record<string, string> = {
  DATABASE_URL: 'postgres://u:secret-db@h/db',
  GITHUB_PAT: 'ghp_secret-pat',
  MY_TOKEN: 'secret-token',
  AWS_SESSION_TOKEN: 'secret-aws',
  HTTPS_PROXY: 'http://u:secret-proxy@proxy:3128',
  NODE_OPTIONS: '--require /tmp/secret-hook.js',
  KEEL_BUILD_FLAVOUR: 'wanted',
  RUNTIME_MODEL_API_KEY: 'secret-model-key',
};
const saved: Record<string, string | undefined> = {};
let work: TempDir;

beforeAll(async () => {
  work = await tempDir();
  for (const [name, value] of Object.entries(planted)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
});

afterAll(async () => {
  await work[Symbol.asyncDispose]();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const layers = [
  { layer: 'without a sandbox', sandbox: () => undefined, skip: false },
  {
    layer: 'inside bubblewrap',
    sandbox: () => createSandbox({ enabled: true, backend: 'bubblewrap' }),
    skip: bwrap === undefined,
  },
];

describe.each(layers)('the environment of exec_command: $layer', ({ sandbox, skip }) => {
  test.skipIf(skip)(
    'is minimal: no secret of the runtime reaches the command, PATH and HOME do',
    async () => {
      const commands = createCommandPolicy({ allowedCommands: ['env'] });
      const ctx = await contextFor(work.path, {}, undefined, { commands, sandbox: sandbox() });
      const output = await runTool(ctx, 'exec_command', { command: 'env' });
      expect(output).toMatch(/^PATH=/m);
      expect(output).toMatch(/^HOME=/m);
      expect(output).not.toMatch(/secret|DATABASE_URL|GITHUB_PAT|MY_TOKEN|AWS_SESSION|PROXY|NODE_OPTIONS/);
      expect(output).not.toContain('KEEL_BUILD_FLAVOUR');
    },
  );

  test.skipIf(skip)("passes what security.env_allow names, never the runtime's own keys", async () => {
    const commands = createCommandPolicy({
      allowedCommands: ['env'],
      envAllow: ['KEEL_BUILD_*', 'MY_TOKEN', 'RUNTIME_*'],
    });
    const ctx = await contextFor(work.path, {}, undefined, { commands, sandbox: sandbox() });
    const output = await runTool(ctx, 'exec_command', { command: 'env' });
    expect(output).toMatch(/^KEEL_BUILD_FLAVOUR=wanted$/m);
    expect(output).toMatch(/^MY_TOKEN=secret-token$/m);
    expect(output).not.toMatch(/DATABASE_URL|GITHUB_PAT|RUNTIME_MODEL_API_KEY|secret-model-key/);
  });
});
