import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { eventually, repoWithRemote, startWorkbench, tempDir } from '../harness.ts';
import { writeFakeAgent as writeFakeAcpAgent } from './acp/fake-agent.ts';
import { writeFakeAgent as writeFakeCliAgent } from './cli/fake-agent.ts';

// Issue #36, item 9: a third-party agent started by the workbench inherited the service's whole environment
// (nine secrets in the attack: GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, WORKBENCH_AUTH_API_KEY, ...), so a
// prompt injection had the agent's own commands print them. Now it gets PATH, HOME, the locale, TMPDIR and
// what its runner sets, plus its runner config's env. Checked here over the real path: the service started
// with the secrets in its environment, a project's knowledge turn through each runner kind, and fake agents
// that write the environment they were given.

const secrets: Record<string, string> = {
  GITHUB_TOKEN: 'ghp_secret_github_0001',
  GITLAB_TOKEN: 'glpat-secret-gitlab-0002',
  AWS_ACCESS_KEY_ID: 'AKIASECRETAWS0003',
  AWS_SECRET_ACCESS_KEY: 'secret-aws-access-key-0004',
  OPENAI_API_KEY: 'sk-secret-openai-0005',
  ANTHROPIC_API_KEY: 'sk-ant-secret-0006',
  NPM_TOKEN: 'npm_secret_0007',
  DATABASE_URL: 'postgres://app:secret-db-password-0008@db.internal/app',
  WORKBENCH_AUTH_API_KEY: 'secret-workbench-key-0009',
  RUNTIME_AUTH_API_KEY: 'secret-runtime-key-0010',
};
const auth = { authorization: `Bearer ${secrets.WORKBENCH_AUTH_API_KEY}` };

// A command-line agent (runner kind cursor): writes its environment, then answers as Cursor's CLI does.
const cliAgentBody = `
const file = process.env.FAKE_ENV_FILE;
fs.writeFileSync(file + '.' + process.pid, JSON.stringify(process.env));
fs.renameSync(file + '.' + process.pid, file);
emit({ type: 'system', subtype: 'init', session_id: 'env-' + process.pid });
emit({ type: 'result', subtype: 'success', is_error: false, result: '# Layer\\n\\nWritten.', session_id: 'env-' + process.pid });
`;

/** The service started with `secrets` in its environment, both fake agents as runner configs. */
async function serviceWithSecrets() {
  const dir = tempDir('agent-env');
  const cliAgent = await writeFakeCliAgent(dir, 'fake-cursor', cliAgentBody);
  const acpAgent = await writeFakeAcpAgent(dir);
  const wb = await startWorkbench([], { configure: false, env: secrets });
  const configured = await wb.api(
    'PUT',
    '/api/settings',
    {
      model: 'mock-model',
      base_url: wb.model.url,
      api_key: 'sk-test-secret',
      runner_configs: [
        {
          id: 'fake-cli',
          name: 'Fake CLI',
          kind: 'cursor',
          binary_path: cliAgent,
          env: { FAKE_ENV_FILE: join(dir, 'fake-cli.json'), MY_AGENT_SETTING: 'from-config' },
        },
        {
          id: 'fake-acp',
          name: 'Fake ACP',
          kind: 'acp',
          binary_path: acpAgent,
          env: {
            FAKE_SCENARIO: 'echo',
            FAKE_ENV_FILE: join(dir, 'fake-acp.json'),
            MY_AGENT_SETTING: 'from-config',
          },
        },
      ],
    },
    auth,
  );
  expect(configured.status, JSON.stringify(configured.body)).toBe(200);
  return { wb, dir };
}

/** A project whose runner is `runner`: its knowledge turns start at once; the environment its agent got. */
async function environmentOf(runner: 'fake-cli' | 'fake-acp'): Promise<Record<string, string>> {
  const { wb, dir } = await serviceWithSecrets();
  await using _wb = wb;
  const repo = repoWithRemote(dir, 'shop', { 'index.js': 'export {};\n' });
  const created = await wb.api(
    'POST',
    '/api/projects',
    { name: 'Shop', repositories: [{ path: repo.dir, type: 'custom' }], default_runner: runner },
    auth,
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const path = join(dir, `${runner}.json`);
  // Awaited here: the service must stay up until the agent has run.
  return await eventually(
    () => (existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>) : undefined),
    `${runner}'s agent writing its environment`,
    60_000,
  );
}

function expectNoSecret(env: Record<string, string>): void {
  for (const [name, value] of Object.entries(secrets)) {
    expect(env[name], name).toBeUndefined();
    expect(JSON.stringify(env), `the value of ${name}`).not.toContain(value);
  }
  expect(env.PATH).toBe(process.env.PATH);
  expect(env.MY_AGENT_SETTING).toBe('from-config');
}

describe('third-party agents get a minimal environment, not the service’s', () => {
  test('a command-line runner: no secret of the service; PATH, its private HOME and the config env', {
    timeout: 120_000,
  }, async () => {
    const env = await environmentOf('fake-cli');
    expectNoSecret(env);
    expect(env.HOME).toMatch(/keel-runner-[0-9a-f]+$/);
  });

  test('an ACP runner: no secret of the service; PATH, HOME and the config env', {
    timeout: 120_000,
  }, async () => {
    const env = await environmentOf('fake-acp');
    expectNoSecret(env);
    expect(env.HOME).toBe(process.env.HOME);
  });
});
