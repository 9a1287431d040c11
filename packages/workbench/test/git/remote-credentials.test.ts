// Security issue #21: a token inside a repository's remote URL (https://oauth2:glpat-…@host/x.git) is never
// stored by the workbench nor returned by its API. Pushes still use the repository's own git config.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { redactCredentials, remoteUrl } from '../../src/git/index.ts';
import {
  type Body,
  eventually,
  knowledgeScript,
  repoWithRemote,
  startWorkbench,
  tempDir,
} from '../harness.ts';

const originUrl = 'https://user:secret-token@127.0.0.1:1/x.git';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : entry.isFile() ? [path] : [];
  });
}

describe('credentials in remote URLs', () => {
  test('redactCredentials hides user info and secret-named query parameters', () => {
    expect(redactCredentials('https://oauth2:glpat-abc@gitlab.example/x.git')).toBe(
      'https://***@gitlab.example/x.git',
    );
    expect(redactCredentials('https://ghp_abc@github.com/o/r.git')).toBe('https://***@github.com/o/r.git');
    expect(redactCredentials('https://gitlab.example/x.git?private_token=abc&ref=main')).toBe(
      'https://gitlab.example/x.git?private_token=***&ref=main',
    );
    expect(redactCredentials('git@github.com:o/r.git')).toBe('git@github.com:o/r.git');
    expect(redactCredentials('/home/me/code/app')).toBe('/home/me/code/app');
  });

  test('a task of a repository whose origin holds a token: not in any response, not in workbench.db', {
    timeout: 60_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('remote-token'), 'app', { 'a.txt': 'a\n' }, { originUrl });
    await using wb = await startWorkbench(knowledgeScript(1));
    const responses: string[] = [];
    const api = async (method: string, path: string, body?: unknown) => {
      const answer = await wb.api(method, path, body);
      responses.push(JSON.stringify(answer.body));
      return answer;
    };
    const project = (
      await api('POST', '/api/projects', { name: 'p', repositories: [{ path: repo.dir, type: 'custom' }] })
    ).body as Body;
    await api('POST', `/api/projects/${project.id}/init`);
    await eventually(
      async () => (await api('GET', `/api/projects/${project.id}`)).body.status === 'READY',
      'READY',
    );
    await api('GET', '/api/projects');
    await api('GET', `/api/projects/${project.id}/knowledge`);
    const task = (await api('POST', '/api/tasks', { project_id: project.id, description: 'Do it' }))
      .body as Body;
    await api('POST', `/api/tasks/${task.id}/init`);
    const initialised = await eventually(async () => {
      const body = (await api('GET', `/api/tasks/${task.id}`)).body;
      return body.init?.status === 'done' && body;
    }, 'init');
    await api('GET', `/api/tasks?project_id=${project.id}`);

    // Shown without the credentials, still telling where the remote is.
    expect(initialised.workspaces[0].origin_url).toBe('https://***@127.0.0.1:1/x.git');
    for (const body of responses) expect(body).not.toContain('secret-token');
    // The database (and its WAL) never held it; the only copy is the workspace's own git config, which
    // pushes use, untouched.
    const holding = filesUnder(wb.home)
      .filter((file) => readFileSync(file).includes('secret-token'))
      .map((file) => relative(wb.home, file));
    expect(holding).toEqual([join('tasks', task.id, 'app', '.git', 'config')]);
    expect(await remoteUrl(initialised.workspaces[0].dir)).toBe(originUrl);
  });
});
