// The model key and the GitHub token set in Settings never come back out: not in any response, not in any
// file under WORKBENCH_HOME or RUNTIME_HOME (session logs, the database, knowledge, the runtime's store),
// except the one file that holds them (secrets.json, mode 0600). Driven through knowledge generation and a
// task's plan, with the real Keel runner against the scripted model.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  type Body,
  eventually,
  planningScript,
  repoWithRemote,
  startWorkbench,
  tempDir,
} from '../harness.ts';

const modelKey = 'sk-LEAKCHECK-model-7c1f9e2a';
const githubToken = 'ghp_LEAKCHECK_token_5b8d3e1c';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : entry.isFile() ? [path] : [];
  });
}

describe('secrets stay out', () => {
  test('the model key and GitHub token are in no response and no file but secrets.json', async () => {
    const repo = repoWithRemote(tempDir('secrets'), 'app', { 'a.txt': 'a\n' });
    await using wb = await startWorkbench(planningScript(1, ['Only step']));
    const responses: string[] = [];
    const api = async (method: string, path: string, body?: unknown) => {
      const answer = await wb.api(method, path, body);
      responses.push(JSON.stringify(answer.body));
      return answer;
    };
    expect((await api('PUT', '/api/settings', { api_key: modelKey, github_token: githubToken })).status).toBe(
      200,
    );
    await api('GET', '/api/settings');
    await api('GET', '/api/settings/check');
    const project = (
      await api('POST', '/api/projects', { name: 'p', repositories: [{ path: repo.dir, type: 'custom' }] })
    ).body as Body;
    await api('POST', `/api/projects/${project.id}/init`);
    await eventually(
      async () => (await api('GET', `/api/projects/${project.id}`)).body.status === 'READY',
      'READY',
    );
    const knowledge = (await api('GET', `/api/projects/${project.id}/knowledge`)).body as Body;
    for (const layer of knowledge.layers as Body[]) {
      await api('GET', `/api/sessions/${layer.session_id}/status`);
      await api('GET', `/api/sessions/${layer.session_id}/logs`);
    }
    const task = (await api('POST', '/api/tasks', { project_id: project.id, description: 'Do it' }))
      .body as Body;
    await api('POST', `/api/tasks/${task.id}/init`);
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.init?.status === 'done',
      'init',
    );
    await api('POST', `/api/tasks/${task.id}/confirm-init`);
    await api('POST', `/api/tasks/${task.id}/plan`);
    await eventually(async () => (await api('GET', `/api/tasks/${task.id}`)).body.plan, 'a plan');

    for (const body of responses) {
      expect(body).not.toContain(modelKey);
      expect(body).not.toContain(githubToken);
    }
    const files = [...filesUnder(wb.home), ...filesUnder(wb.runtimeHome)];
    expect(files.length).toBeGreaterThan(10);
    const holding = files.filter((file) => {
      if (statSync(file).size > 50 * 1024 * 1024) return false;
      const bytes = readFileSync(file);
      return bytes.includes(modelKey) || bytes.includes(githubToken);
    });
    expect(holding.map((file) => file.slice(wb.home.length))).toEqual(['/secrets.json']);
    expect(statSync(join(wb.home, 'secrets.json')).mode & 0o777).toBe(0o600);
  }, 120_000);
});
