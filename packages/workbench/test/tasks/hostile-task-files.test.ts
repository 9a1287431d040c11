// The task directory is the model's working folder: plan.md, todo.json, project.md, constitution.md and
// .skills may have been replaced by links. The workbench's own writes replace such a link (never write
// through it) and its reads refuse it (never put what it points to into a prompt or a response).
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  type Body,
  eventually,
  knowledgeScript,
  repoWithRemote,
  startWorkbench,
  tempDir,
} from '../harness.ts';

const secret = 'export SECRET=do-not-leak\n';

/** A file of the user's outside the workbench (their ~/.bashrc), and a folder (their ~/.ssh). */
function outsideHome() {
  const home = tempDir('user-home');
  const bashrc = join(home, '.bashrc');
  writeFileSync(bashrc, secret);
  mkdirSync(join(home, '.ssh'));
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY\n');
  return { home, bashrc };
}

/** Replaces `path` by a symbolic link to `target`, as a model with a shell would. */
function plantLink(path: string, target: string): void {
  rmSync(path, { recursive: true, force: true });
  symlinkSync(target, path);
}

describe('task files the model may have replaced by links', () => {
  test('init, plan and todo writes replace a planted link; reads refuse it', {
    timeout: 60_000,
  }, async () => {
    const { home, bashrc } = outsideHome();
    const repo = repoWithRemote(tempDir('hostile-files'), 'app', { 'a.txt': 'a\n' });
    const todos = [{ title: 'one', description: 'Do one', expected_output: 'one done' }];
    await using wb = await startWorkbench([
      ...knowledgeScript(1),
      { when: { lastMessageIncludes: 'Write the technical plan' }, text: '# Plan\n\nDo it.' },
      { when: { lastMessageIncludes: 'Improve the plan' }, text: '# Plan v2\n\nDo it better.', repeat: true },
      {
        when: { lastMessageIncludes: 'Break it into an ordered list of todos' },
        text: JSON.stringify(todos),
      },
    ]);
    const { api } = wb;
    const project = (
      await api('POST', '/api/projects', { name: 'p', repositories: [{ path: repo.dir, type: 'custom' }] })
    ).body;
    await api('POST', `/api/projects/${project.id}/init`);
    await eventually(
      async () => (await api('GET', `/api/projects/${project.id}`)).body.status === 'READY',
      'READY',
    );
    const task = (await api('POST', '/api/tasks', { project_id: project.id, description: 'A task' })).body;
    const taskDir: string = task.work_dir;

    // Before init: project.md, constitution.md and .skills are links out of the task directory.
    mkdirSync(taskDir, { recursive: true });
    symlinkSync(bashrc, join(taskDir, 'project.md'));
    symlinkSync(bashrc, join(taskDir, 'constitution.md'));
    symlinkSync(join(home, '.ssh'), join(taskDir, '.skills'));
    await api('POST', `/api/tasks/${task.id}/init`);
    const initialised = await eventually(async () => {
      const body: Body = (await api('GET', `/api/tasks/${task.id}`)).body;
      return body.init.status !== 'running' && body;
    }, 'init');
    expect(initialised.init.status).toBe('done');
    expect(readFileSync(bashrc, 'utf8')).toBe(secret);
    expect(readFileSync(join(home, '.ssh', 'id_rsa'), 'utf8')).toBe('PRIVATE KEY\n');
    for (const name of ['project.md', 'constitution.md', '.skills']) {
      expect(lstatSync(join(taskDir, name)).isSymbolicLink(), name).toBe(false);
    }
    expect(readFileSync(join(taskDir, 'project.md'), 'utf8')).toContain('## app');

    // The first plan is written; then the model swaps plan.md for a link to ~/.bashrc.
    await api('POST', `/api/tasks/${task.id}/confirm-init`);
    await api('POST', `/api/tasks/${task.id}/plan`);
    await eventually(async () => (await api('GET', `/api/tasks/${task.id}`)).body.plan, 'plan');
    const planMd = join(taskDir, 'plan.md');
    plantLink(planMd, bashrc);
    const shown = await api('GET', `/api/tasks/${task.id}`);
    expect(shown.status).toBe(200);
    expect(JSON.stringify(shown.body)).not.toContain('do-not-leak');

    // Locking reads the plan: the link is refused, the state does not move.
    const locked = await api('POST', `/api/tasks/${task.id}/lock-plan`);
    expect(locked.status).toBe(403);
    expect(locked.body.error).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect((await api('GET', `/api/tasks/${task.id}`)).body.state).toBe('PLANNING');

    // A refined plan replaces the link instead of writing through it.
    await api('POST', `/api/tasks/${task.id}/plan`, { message: 'Improve the plan.' });
    await eventually(() => !lstatSync(planMd).isSymbolicLink(), 'plan.md rewritten');
    expect(readFileSync(planMd, 'utf8')).toBe('# Plan v2\n\nDo it better.\n');
    expect(readFileSync(bashrc, 'utf8')).toBe(secret);

    // todo.json planted as a link before the todos are written.
    const todoJson = join(taskDir, 'todo.json');
    plantLink(todoJson, bashrc);
    expect((await api('POST', `/api/tasks/${task.id}/lock-plan`)).status).toBe(202);
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.state === 'TODO_READY',
      'TODO_READY',
    );
    expect(lstatSync(todoJson).isSymbolicLink()).toBe(false);
    expect(JSON.parse(readFileSync(todoJson, 'utf8'))).toHaveLength(1);
    expect(readFileSync(bashrc, 'utf8')).toBe(secret);

    // No prompt the model received ever held the outside file.
    expect(JSON.stringify(wb.model.chatRequests)).not.toContain('do-not-leak');
    expect(existsSync(join(home, 'plan.md'))).toBe(false);
  });
});
