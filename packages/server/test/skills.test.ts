import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { startServer } from './harness.ts';

const deploy = '---\nname: deploy\ndescription: Ship it.\n---\n# Deploy\nRun the release script.\n';
const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8'));

describe('GET /skills', () => {
  test('lists every skill with name, description, enabled and source, and the SKILL.md files it skipped', async () => {
    await using s = await startServer([], {
      config: { skills: { disabled: ['git'] } },
      files: {
        '.runtime/skills/deploy/SKILL.md': deploy,
        '.runtime/skills/broken/SKILL.md': '---\nname: broken\n---\n',
      },
    });
    const { status, body } = await s.api('GET', '/skills');
    expect(status).toBe(200);
    expect(body.skills.map((skill: { name: string }) => skill.name)).toEqual([
      'containers',
      'deploy',
      'git',
      'package-managers',
      'python',
      'testing',
    ]);
    expect(body.skills[1]).toEqual({
      name: 'deploy',
      description: 'Ship it.',
      enabled: true,
      source: 'project',
    });
    expect(body.skills[2]).toMatchObject({ name: 'git', enabled: false, source: 'builtin' });
    expect(body.warnings).toEqual([
      {
        path: join(s.repo.path, '.runtime', 'skills', 'broken', 'SKILL.md'),
        message: 'Skipped: its front matter has no description.',
      },
    ]);
  });

  test('?workdir= picks the project; a workdir that is not a directory is 400 INVALID_PARAMS', async () => {
    await using s = await startServer([], { files: { '.runtime/skills/deploy/SKILL.md': deploy } });
    const other = await mkdtemp(join(tmpdir(), 'keel-web-other-'));
    try {
      const { body } = await s.api('GET', `/skills?workdir=${encodeURIComponent(other)}`);
      expect(body.skills.map((skill: { name: string }) => skill.name)).toEqual([
        'containers',
        'git',
        'package-managers',
        'python',
        'testing',
      ]);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
    const missing = await s.api('GET', '/skills?workdir=/no/such/dir');
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('INVALID_PARAMS');
  });
});

describe('GET /skills/{name}', () => {
  test('answers the skill with its documentation', async () => {
    await using s = await startServer([], { files: { '.runtime/skills/deploy/SKILL.md': deploy } });
    const { status, body } = await s.api('GET', '/skills/deploy');
    expect(status).toBe(200);
    expect(body).toEqual({
      name: 'deploy',
      description: 'Ship it.',
      enabled: true,
      source: 'project',
      documentation: '# Deploy\nRun the release script.',
      path: join(s.repo.path, '.runtime', 'skills', 'deploy'),
    });
  });

  test('any name that is not a loaded skill, malformed or not, is 404 SKILL_NOT_FOUND', async () => {
    await using s = await startServer([]);
    const missing = await s.api('GET', '/skills/nope');
    expect(missing).toEqual({
      status: 404,
      body: {
        error: {
          code: 'SKILL_NOT_FOUND',
          message:
            "Skill 'nope' does not exist. Available: containers, git, package-managers, python, testing.",
          details: {
            name: 'nope',
            available: ['containers', 'git', 'package-managers', 'python', 'testing'],
          },
        },
      },
    });
    for (const name of ['Not_A_Name', 'v2', 'x'.repeat(65), '%20']) {
      const malformed = await s.api('GET', `/skills/${name}`);
      expect(malformed.status, name).toBe(404);
      expect(malformed.body.error.code).toBe('SKILL_NOT_FOUND');
    }
  });
});

describe('POST /skills/{name}/enable and /disable', () => {
  test('write the global file by default and answer the updated skill; GET /skills agrees', async () => {
    await using s = await startServer([], { config: { model: 'kept' } });
    const disabled = await s.api('POST', '/skills/git/disable');
    expect(disabled).toEqual({
      status: 200,
      body: { name: 'git', description: expect.any(String), enabled: false, source: 'builtin' },
    });
    expect(await readJson(join(s.home, 'config.json'))).toEqual({
      model: 'kept',
      skills: { disabled: ['git'] },
    });
    const listed = await s.api('GET', '/skills');
    expect(listed.body.skills.find((skill: { name: string }) => skill.name === 'git').enabled).toBe(false);

    const enabled = await s.api('POST', '/skills/git/enable');
    expect(enabled.body).toMatchObject({ name: 'git', enabled: true });
    expect(await readJson(join(s.home, 'config.json'))).toEqual({ model: 'kept', skills: { disabled: [] } });
  });

  test('?scope=project writes the project file of ?workdir= (default the server workdir)', async () => {
    await using s = await startServer([]);
    const { status, body } = await s.api('POST', '/skills/testing/disable?scope=project');
    expect(status).toBe(200);
    expect(body.enabled).toBe(false);
    expect(await readJson(join(s.repo.path, '.runtime', 'config.json'))).toEqual({
      skills: { disabled: ['testing'] },
    });
    await expect(readFile(join(s.home, 'config.json'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  test('concurrent changes to one file all land (no lost update, also with PUT /config)', async () => {
    await using s = await startServer([]);
    const answers = await Promise.all([
      s.api('POST', '/skills/git/disable'),
      s.api('POST', '/skills/testing/disable'),
      s.api('PUT', '/config', { model: 'new-model' }),
      s.api('POST', '/skills/python/disable'),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const written = await readJson(join(s.home, 'config.json'));
    expect(written.model).toBe('new-model');
    expect([...written.skills.disabled].sort()).toEqual(['git', 'python', 'testing']);
  });

  test('an unknown or malformed skill name is 404 and writes nothing; a bad scope is 400', async () => {
    await using s = await startServer([]);
    const missing = await s.api('POST', '/skills/nope/enable');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('SKILL_NOT_FOUND');
    await expect(readFile(join(s.home, 'config.json'), 'utf8')).rejects.toThrow(/ENOENT/);

    const scope = await s.api('POST', '/skills/git/disable?scope=everywhere');
    expect(scope.status).toBe(400);
    expect(scope.body.error.code).toBe('INVALID_PARAMS');
    expect(scope.body.error.message).toMatch(/^querystring\.scope: /);
    const name = await s.api('POST', '/skills/Bad_Name/disable');
    expect(name.status).toBe(404);
    expect(name.body.error.code).toBe('SKILL_NOT_FOUND');
    await expect(readFile(join(s.home, 'config.json'), 'utf8')).rejects.toThrow(/ENOENT/);
  });
});

describe('skills in POST /run', () => {
  test('an unknown skill in the request is 400 INVALID_PARAMS naming it', async () => {
    await using s = await startServer([]);
    const { status, body } = await s.api('POST', '/run', { prompt: 'Go', skills: ['testing', 'made-up'] });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({
      code: 'INVALID_PARAMS',
      message:
        'Unknown skill in skills: made-up. Available: containers, git, package-managers, python, testing.',
      details: { field: 'skills', unknown: ['made-up'] },
    });
    expect(s.model.chatRequests).toHaveLength(0);
  });
});
