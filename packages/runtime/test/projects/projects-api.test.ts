import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTempDir, eventually } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { createRuntime } from '../../src/index.ts';
import { startHarness } from '../harness.ts';

describe('runtime.projects and runtime.tasks', () => {
  test('a project gets its runtime directories and a session; another runtime on the store sees it', async () => {
    await using h = await startHarness([]);
    await using extra = await createTempDir();
    const project = await h.runtime.projects.create({
      name: 'Shop',
      workdir: h.workdir,
      code_paths: [extra.path, extra.path],
    });
    expect(project).toMatchObject({
      id: expect.stringMatching(/^prj_/),
      name: 'Shop',
      description: '',
      workdir: h.workdir,
      code_paths: [extra.path],
      session_id: expect.stringMatching(/^ses_/),
    });
    expect(JSON.parse(await readFile(join(h.workdir, '.runtime', 'config.json'), 'utf8'))).toEqual({});
    expect(h.runtime.sessions.get(project.session_id!)).toMatchObject({ title: 'Shop', workdir: h.workdir });

    const other = h.other();
    try {
      expect(await other.projects.get(project.id)).toEqual(project);
      expect((await other.projects.list()).map((each) => each.id)).toEqual([project.id]);
    } finally {
      await other.close();
    }
    const renamed = await h.runtime.projects.update(project.id, { name: 'Shop 2', code_paths: [] });
    expect(renamed).toMatchObject({ name: 'Shop 2', code_paths: [], workdir: h.workdir });
    await h.runtime.projects.delete(project.id);
    await expect(h.runtime.projects.get(project.id)).rejects.toMatchObject({ code: 'PROJECT_NOT_FOUND' });
  });

  test('bad fields are INVALID_PARAMS naming each field; an existing project config is kept', async () => {
    await using h = await startHarness([]);
    await expect(h.runtime.projects.create({ name: ' ', workdir: '' })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      details: {
        issues: [
          { field: 'name', message: 'must not be empty' },
          { field: 'workdir', message: 'must not be empty' },
        ],
      },
    });
    await expect(
      h.runtime.projects.create({ name: 'x', workdir: join(h.workdir, 'missing') }),
    ).rejects.toMatchObject({ code: 'INVALID_PARAMS', details: { issues: [{ field: 'workdir' }] } });
    await expect(
      h.runtime.projects.create({ name: 'x', workdir: h.workdir, code_paths: ['.', 'nope'] }),
    ).rejects.toMatchObject({ details: { issues: [{ field: 'code_paths.1' }] } });
    await expect(
      h.runtime.projects.create({ name: 'x', workdir: h.workdir, colour: 'red' } as never),
    ).rejects.toMatchObject({ code: 'INVALID_PARAMS', message: expect.stringContaining('colour') });

    await mkdir(join(h.workdir, '.runtime'), { recursive: true });
    await writeFile(join(h.workdir, '.runtime', 'config.json'), '{"model": "mine"}');
    await h.runtime.projects.create({ name: 'x', workdir: h.workdir });
    expect(await readFile(join(h.workdir, '.runtime', 'config.json'), 'utf8')).toBe('{"model": "mine"}');
  });

  test('tasks create their branch, a second task switches to its own, a dirty tree is refused with nothing lost', async () => {
    await using h = await startHarness([], { 'app.txt': 'v1\n' });
    const project = await h.runtime.projects.create({ name: 'App', workdir: h.workdir });
    const first = await h.runtime.tasks.create(project.id, { name: 'Login', branch_name: 'feature/login' });
    expect(first).toMatchObject({
      project_id: project.id,
      branch_name: 'feature/login',
      session_id: expect.stringMatching(/^ses_/),
    });
    expect(first.session_id).not.toBe(project.session_id);
    expect((await h.repo.git('branch', '--show-current')).trim()).toBe('feature/login');

    // Work committed on the first branch stays there.
    await writeFile(join(h.workdir, 'app.txt'), 'v2\n');
    await h.repo.git('commit', '-qam', 'login work');
    const second = await h.runtime.tasks.create(project.id, {
      name: 'Search',
      branch_name: 'feature/search',
    });
    expect((await h.repo.git('branch', '--show-current')).trim()).toBe('feature/search');
    expect(await readFile(join(h.workdir, 'app.txt'), 'utf8')).toBe('v2\n');

    // Back to the first task's existing branch.
    await h.runtime.tasks.checkout(first.id);
    expect((await h.repo.git('branch', '--show-current')).trim()).toBe('feature/login');

    // Uncommitted work: refused, and the tree, the index and the branch are as they were.
    await writeFile(join(h.workdir, 'app.txt'), 'unsaved\n');
    await writeFile(join(h.workdir, 'new.txt'), 'staged\n');
    await h.repo.git('add', 'new.txt');
    const statusBefore = await h.repo.git('status', '--porcelain');
    await expect(h.runtime.tasks.checkout(second.id)).rejects.toMatchObject({
      code: 'INVALID_STATE',
      details: { changed_files: ['app.txt', 'new.txt'], branch: 'feature/search' },
    });
    await expect(
      h.runtime.tasks.create(project.id, { name: 'Other', branch_name: 'feature/other' }),
    ).rejects.toMatchObject({
      code: 'INVALID_STATE',
      message: expect.stringContaining('uncommitted changes'),
    });
    expect(await h.repo.git('status', '--porcelain')).toBe(statusBefore);
    expect((await h.repo.git('branch', '--show-current')).trim()).toBe('feature/login');
    expect(await readFile(join(h.workdir, 'app.txt'), 'utf8')).toBe('unsaved\n');
    expect(await h.repo.git('branch', '--list', 'feature/other')).toBe('');
    expect((await h.runtime.tasks.list(project.id)).map((task) => task.id)).toEqual([second.id, first.id]);
    // A task whose branch is already checked out needs no switch, dirty or not.
    expect(await h.runtime.tasks.checkout(first.id)).toEqual(first);
  });

  test('branch names git refuses are INVALID_PARAMS; a project outside git cannot have tasks', async () => {
    await using h = await startHarness([]);
    const project = await h.runtime.projects.create({ name: 'App', workdir: h.workdir });
    for (const bad of ['has space', '..', 'a..b', '-x', '@{-1}', 'HEAD', 'x.lock', 'a~b', 'tail/']) {
      await expect(
        h.runtime.tasks.create(project.id, { name: 'x', branch_name: bad }),
        `branch name ${bad}`,
      ).rejects.toMatchObject({ code: 'INVALID_PARAMS', details: { issues: [{ field: 'branch_name' }] } });
    }
    expect((await h.repo.git('branch', '--show-current')).trim()).toBe('main');
    await expect(
      h.runtime.tasks.create('prj_missing', { name: 'x', branch_name: 'ok' }),
    ).rejects.toMatchObject({ code: 'PROJECT_NOT_FOUND' });

    await using plain = await createTempDir();
    const outside = await h.runtime.projects.create({ name: 'Plain', workdir: plain.path });
    await expect(h.runtime.tasks.create(outside.id, { name: 'x', branch_name: 'ok' })).rejects.toMatchObject({
      code: 'INVALID_STATE',
      message: expect.stringContaining('not in a git repository'),
    });
    expect(await h.runtime.tasks.list(outside.id)).toEqual([]);
  });

  test('init writes AGENTS.md through a run of the scripted model; a chat turn runs in the project session', async () => {
    await using h = await startHarness(
      [
        {
          toolCalls: [
            { name: 'write_file', arguments: { path: 'AGENTS.md', content: '# App\n\nRun `npm test`.\n' } },
          ],
        },
        { when: { lastRole: 'tool' }, text: 'Wrote AGENTS.md.' },
        { text: 'Hello from the project chat.' },
      ],
      { 'package.json': '{"scripts": {"test": "vitest"}}' },
    );
    const project = await h.runtime.projects.create({ name: 'App', workdir: h.workdir });
    const { run, guide_path } = await h.runtime.projects.init(project.id);
    expect(guide_path).toBe(join(h.workdir, 'AGENTS.md'));
    expect(run.prompt).toContain('Create AGENTS.md');
    const done = await eventually(
      async () => {
        const current = await h.runtime.runs.get(run.id);
        return ['succeeded', 'failed'].includes(current.status) && current;
      },
      { timeoutMs: 10_000, intervalMs: 20, what: 'the init run to end' },
    );
    expect(done.status).toBe('succeeded');
    expect(await readFile(guide_path, 'utf8')).toBe('# App\n\nRun `npm test`.\n');
    // The model was not offered exec_command.
    const tools = h.model.chatRequests[0]?.tools?.map((tool) => tool.function?.name);
    expect(tools).toContain('write_file');
    expect(tools).not.toContain('exec_command');

    const chat = await h.runtime.projects.chat(project.id, { prompt: 'hi' }, { execute: false });
    expect(chat).toMatchObject({ session_id: project.session_id, workdir: h.workdir, status: 'queued' });
    await h.runtime.drive(chat.id);
    expect((await h.runtime.runs.get(chat.id)).result).toMatchObject({
      output: 'Hello from the project chat.',
    });
  });

  test('init fails clearly without a usable model, and when the agent writes no guide', async () => {
    await using h = await startHarness([{ text: 'I looked around.' }]);
    const bare = createRuntime({ runtimeDir: h.runtimeDir, env: {} });
    try {
      const project = await bare.projects.create({ name: 'App', workdir: h.workdir });
      await expect(bare.projects.init(project.id)).rejects.toMatchObject({
        code: 'CONFIG_ERROR',
        message: expect.stringMatching(/^Project init needs a usable model\. No model configured/),
      });
      expect(await bare.runs.list()).toEqual([]);
    } finally {
      await bare.close();
    }
    const project = (await h.runtime.projects.list())[0]!;
    const { run } = await h.runtime.projects.init(project.id);
    const failed = await eventually(
      async () => {
        const current = await h.runtime.runs.get(run.id);
        return current.status === 'failed' && current;
      },
      { timeoutMs: 10_000, intervalMs: 20, what: 'the init run to fail' },
    );
    expect(failed.error).toMatchObject({ code: 'TOOL_ERROR', message: expect.stringContaining('AGENTS.md') });
  });
});
