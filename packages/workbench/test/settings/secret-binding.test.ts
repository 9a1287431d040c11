// Security issue #21: a stored secret goes only to the address it was saved with. Changing base_url (or
// github_api_url) alone clears the model key (or GitHub token) instead of sending it to the new address.
// Real workbench, real Keel runner, two scripted model servers and two fake GitHub APIs that record what
// reaches them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockModel } from '@keel/testkit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type Api,
  type Body,
  eventually,
  fakeGitHub,
  knowledgeScript,
  planningScript,
  repoWithRemote,
  startWorkbench,
  taskInCoding,
  tempDir,
} from '../harness.ts';

const keyA = 'sk-BOUND-to-A-4f1e';
const keyB = 'sk-BOUND-to-B-9c2d';

/** Authorization headers a scripted model server received. */
function bearers(model: { requests: readonly { headers: Record<string, unknown> }[] }): unknown[] {
  return model.requests.map((request) => request.headers.authorization);
}

/** Generates a new project's knowledge (one repository: four model calls) and waits for READY. */
async function generateKnowledge(api: Api, repository: string): Promise<void> {
  const project = (
    await api('POST', '/api/projects', { name: 'p', repositories: [{ path: repository, type: 'custom' }] })
  ).body as Body;
  expect((await api('POST', `/api/projects/${project.id}/init`)).status).toBe(202);
  await eventually(
    async () => (await api('GET', `/api/projects/${project.id}`)).body.status === 'READY',
    'knowledge READY',
  );
}

describe('the model key is bound to its base_url', () => {
  test('base_url alone clears the key; the new address never sees it; URL and key together keep the key', {
    timeout: 60_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('binding'), 'app', { 'a.txt': 'a\n' });
    await using wb = await startWorkbench(knowledgeScript(1), { configure: false });
    const modelA = wb.model;
    const modelB = await startMockModel({ script: knowledgeScript(1) });
    try {
      const saved = await wb.api('PUT', '/api/settings', {
        model: 'mock-model',
        base_url: modelA.url,
        api_key: keyA,
      });
      expect(saved.body).toMatchObject({ api_key_set: true, cleared_secrets: [] });
      expect(saved.body.message).toBeUndefined();
      expect(JSON.parse(readFileSync(join(wb.home, 'secrets.json'), 'utf8'))).toEqual({
        api_key: keyA,
        api_key_base_url: modelA.url,
      });

      const moved = await wb.api('PUT', '/api/settings', { base_url: modelB.url });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({
        base_url: modelB.url,
        api_key_set: false,
        cleared_secrets: ['api_key'],
      });
      expect(moved.body.message).toMatch(/api_key was removed because base_url changed/);
      expect(readFileSync(join(wb.home, 'secrets.json'), 'utf8')).not.toContain(keyA);
      const check = (await wb.api('GET', '/api/settings/check')).body;
      expect(check).toMatchObject({ ready: false, missing: ['api_key'] });
      expect(check.reasons.api_key).toMatch(/base_url changed/);

      // An AI action now goes to B without the key; A hears nothing.
      await generateKnowledge(wb.api, repo.dir);
      expect(modelB.requests.length).toBeGreaterThanOrEqual(4);
      expect(bearers(modelB)).not.toContain(`Bearer ${keyA}`);
      expect(new Set(bearers(modelB))).toEqual(new Set(['Bearer no-key']));
      expect(modelA.requests).toHaveLength(0);

      // The address and a key in one PUT: the key is kept, bound to that address (trailing slash or not).
      const both = await wb.api('PUT', '/api/settings', { base_url: `${modelA.url}/`, api_key: keyB });
      expect(both.body).toMatchObject({ api_key_set: true, cleared_secrets: [] });
      expect((await wb.api('GET', '/api/settings/check')).body).toMatchObject({
        ready: true,
        missing: [],
        reasons: {},
      });
      const sameAddress = await wb.api('PUT', '/api/settings', { base_url: modelA.url });
      expect(sameAddress.body).toMatchObject({ api_key_set: true, cleared_secrets: [] });
      await generateKnowledge(wb.api, repo.dir);
      expect(modelA.requests.length).toBeGreaterThanOrEqual(4);
      expect(new Set(bearers(modelA))).toEqual(new Set([`Bearer ${keyB}`]));
      expect(bearers(modelB)).not.toContain(`Bearer ${keyB}`);
    } finally {
      await modelB.close();
    }
  });

  test('a secrets.json from before binding binds to the URL in force when first read', async () => {
    await using wb = await startWorkbench([], { configure: false });
    await wb.api('PUT', '/api/settings', { model: 'mock-model', base_url: wb.model.url });
    const file = join(wb.home, 'secrets.json');
    writeFileSync(file, JSON.stringify({ api_key: keyA, github_token: 'ghp_old' }), { mode: 0o600 });
    expect((await wb.api('GET', '/api/settings')).body).toMatchObject({
      api_key_set: true,
      github_token_set: true,
    });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      api_key: keyA,
      api_key_base_url: wb.model.url,
      github_token: 'ghp_old',
      github_token_api_url: 'https://api.github.com',
    });
    const moved = await wb.api('PUT', '/api/settings', {
      base_url: 'http://127.0.0.1:1/v1',
      github_api_url: 'http://127.0.0.1:1',
    });
    expect(moved.body).toMatchObject({
      api_key_set: false,
      github_token_set: false,
      cleared_secrets: ['api_key', 'github_token'],
    });
    expect((await wb.api('GET', '/api/settings/check')).body).toMatchObject({
      ready: false,
      missing: ['api_key', 'github_token'],
    });
    // Sending a secret again (or null) ends its "missing".
    await wb.api('PUT', '/api/settings', { api_key: null, github_token: 'ghp_new' });
    expect((await wb.api('GET', '/api/settings/check')).body).toMatchObject({ ready: true, missing: [] });
  });

  test('a runner config whose env names another endpoint gets no key from settings', {
    timeout: 60_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('redirect'), 'app', { 'a.txt': 'a\n' });
    await using wb = await startWorkbench([], { configure: false });
    const other = await startMockModel({ script: [...knowledgeScript(1), ...knowledgeScript(1)] });
    try {
      // The key is bound to "no base_url" (the runner's default endpoint); the config points elsewhere.
      await wb.api('PUT', '/api/settings', {
        model: 'mock-model',
        api_key: keyA,
        runner_configs: [
          { id: 'elsewhere', name: 'Elsewhere', kind: 'keel', env: { RUNTIME_MODEL_BASE_URL: other.url } },
        ],
        default_runner: 'elsewhere',
      });
      await generateKnowledge(wb.api, repo.dir);
      expect(other.requests.length).toBeGreaterThanOrEqual(4);
      expect(new Set(bearers(other))).toEqual(new Set(['Bearer no-key']));

      // Its own key in its env is its to send.
      await wb.api('PUT', '/api/settings', {
        runner_configs: [
          {
            id: 'elsewhere',
            name: 'Elsewhere',
            kind: 'keel',
            env: { RUNTIME_MODEL_BASE_URL: other.url, RUNTIME_MODEL_API_KEY: keyB },
          },
        ],
      });
      const before = other.requests.length;
      await generateKnowledge(wb.api, repo.dir);
      expect(new Set(bearers(other).slice(before))).toEqual(new Set([`Bearer ${keyB}`]));
      expect(bearers(other)).not.toContain(`Bearer ${keyA}`);
    } finally {
      await other.close();
    }
  });
});

describe('the GitHub token is bound to its github_api_url', () => {
  const root = tempDir('github-binding');
  const githubUrl = 'https://github.com/acme/app.git';
  const saved = { ...process.env };
  beforeAll(() => {
    // Pushes to the "GitHub" remote URL go to its bare repository (for the git commands of this process).
    Object.assign(process.env, {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: `url.${join(root, 'app.git')}.pushInsteadOf`,
      GIT_CONFIG_VALUE_0: githubUrl,
    });
  });
  afterAll(() => {
    process.env = saved;
  });

  test('github_api_url alone clears the token; URL and token together keep it', {
    timeout: 90_000,
  }, async () => {
    const repo = repoWithRemote(root, 'app', { 'a.txt': 'a\n' }, { originUrl: githubUrl });
    const githubA = await fakeGitHub();
    const githubB = await fakeGitHub();
    await using wb = await startWorkbench([
      ...planningScript(1, ['one']),
      {
        when: { lastMessageIncludes: 'Do todo 1 of 1' },
        toolCalls: [{ name: 'write_file', arguments: { path: 'app/one.txt', content: '1\n' } }],
      },
      { when: { lastRole: 'tool' }, text: 'Done.' },
    ]);
    try {
      const { api } = wb;
      const saved = await api('PUT', '/api/settings', {
        github_api_url: githubA.url,
        github_token: 'ghp_tokenA',
      });
      expect(saved.body).toMatchObject({ github_token_set: true, cleared_secrets: [] });
      const task = await taskInCoding(api, [{ path: repo.dir, type: 'custom' }]);
      expect((await api('POST', `/api/tasks/${task.id}/run-all`)).status).toBe(202);
      await eventually(
        async () => (await api('GET', `/api/tasks/${task.id}`)).body.state === 'REVIEWING',
        'REVIEWING',
      );

      const moved = await api('PUT', '/api/settings', { github_api_url: githubB.url });
      expect(moved.body).toMatchObject({ github_token_set: false, cleared_secrets: ['github_token'] });
      expect(moved.body.message).toMatch(/github_token was removed because github_api_url changed/);
      const check = (await api('GET', '/api/settings/check')).body;
      expect(check.missing).toEqual(['github_token']);
      expect(check.reasons.github_token).toMatch(/github_api_url changed/);
      // The model is still usable: AI actions can run.
      expect(check.ready).toBe(true);
      const refused = await api('POST', `/api/tasks/${task.id}/submit-mr`);
      expect(refused.body.error?.code).toBe('GITHUB_TOKEN_NOT_CONFIGURED');
      expect(githubB.requests).toHaveLength(0);
      expect(githubA.requests).toHaveLength(0);

      const both = await api('PUT', '/api/settings', {
        github_api_url: githubB.url,
        github_token: 'ghp_tokenB',
      });
      expect(both.body).toMatchObject({ github_token_set: true, cleared_secrets: [] });
      const submitted = await api('POST', `/api/tasks/${task.id}/submit-mr`);
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
      expect(githubB.requests).toHaveLength(1);
      expect(githubB.requests[0]?.headers.authorization).toBe('Bearer ghp_tokenB');
      expect(githubA.requests).toHaveLength(0);
    } finally {
      await githubA.close();
      await githubB.close();
    }
  });
});
