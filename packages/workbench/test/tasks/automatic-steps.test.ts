// The steps the flow takes by itself: knowledge on project creation, init on task creation (or once the
// project is READY), the first plan draft on confirmation, the commit message on entering review. Each
// failure is left on the record, and the manual endpoint retries it.
import { describe, expect, test } from 'vitest';
import {
  type Body,
  eventually,
  knowledgeScript,
  repoWithRemote,
  startWorkbench,
  tempDir,
} from '../harness.ts';

describe('automatic steps', () => {
  test('a task created while its project generates knowledge initializes itself once the project is READY', {
    timeout: 60_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('auto-wait'), 'app', { 'a.txt': 'a\n' });
    // The structure layer answers slowly: the task is created while the project is INITIALIZING.
    const [structure, ...rest] = knowledgeScript(1);
    await using wb = await startWorkbench([{ ...structure, delayMs: 500 } as (typeof rest)[0], ...rest]);
    const { api } = wb;
    const project = (
      await api('POST', '/api/projects', { name: 'p', repositories: [{ path: repo.dir, type: 'custom' }] })
    ).body;
    expect(project.status).toBe('INITIALIZING');
    const task = (await api('POST', '/api/tasks', { project_id: project.id, description: 'Waits' })).body;
    expect(task).toMatchObject({ state: 'CREATED', error: null });
    const initialized = await eventually(async () => {
      const body = (await api('GET', `/api/tasks/${task.id}`)).body;
      return body.init.status === 'done' && body;
    }, 'init by itself after READY');
    expect(initialized.state).toBe('INITIALIZING');
    expect((await api('GET', `/api/projects/${project.id}`)).body.status).toBe('READY');
  });

  test('a failed automatic plan draft leaves its error on the task; POST .../plan retries it', {
    timeout: 60_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('auto-fail'), 'app', { 'a.txt': 'a\n' });
    await using wb = await startWorkbench([
      ...knowledgeScript(1),
      {
        when: { lastMessageIncludes: 'Write the technical plan' },
        error: { status: 400, message: 'bad day' },
      },
      { when: { lastMessageIncludes: 'Write the technical plan' }, text: '# Plan\n\nSecond try.' },
    ]);
    const { api } = wb;
    const project = (
      await api('POST', '/api/projects', { name: 'p', repositories: [{ path: repo.dir, type: 'custom' }] })
    ).body;
    await eventually(
      async () => (await api('GET', `/api/projects/${project.id}`)).body.status === 'READY',
      'READY',
    );
    const task = (await api('POST', '/api/tasks', { project_id: project.id, description: 'Fails first' }))
      .body;
    expect(task.state).toBe('INITIALIZING');
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.init.status === 'done',
      'init',
    );
    const confirmed = (await api('POST', `/api/tasks/${task.id}/confirm-init`)).body;
    expect(confirmed.state).toBe('PLANNING');
    const failed = await eventually(async () => {
      const body = (await api('GET', `/api/tasks/${task.id}`)).body;
      return body.error && body;
    }, 'the draft failure on the task');
    expect(failed.error).toContain('Writing the technical plan failed');
    expect(failed.error).toContain(`POST /api/tasks/${task.id}/plan`);
    expect(failed.plan).toBeNull();
    await eventually(
      async () =>
        (await api('GET', `/api/sessions/${confirmed.plan_session_id}/status`)).body.status === 'failed',
      'the failed session',
    );

    const retried = await api('POST', `/api/tasks/${task.id}/plan`);
    expect(retried.status).toBe(202);
    expect(retried.body.session.id).toBe(confirmed.plan_session_id);
    const planned = await eventually(async () => {
      const body = (await api('GET', `/api/tasks/${task.id}`)).body;
      return body.plan && body;
    }, 'the retried plan');
    expect(planned.plan).toBe('# Plan\n\nSecond try.\n');
    await eventually(async () => (await api('GET', `/api/tasks/${task.id}`)).body.error === null, 'cleared');
  });

  test('without a model nothing starts: the project says why; a task of a project not READY says what to do', async () => {
    const repo = repoWithRemote(tempDir('auto-nomodel'), 'app', { 'a.txt': 'a\n' });
    await using wb = await startWorkbench([], { configure: false });
    const { api } = wb;
    const project = (
      await api('POST', '/api/projects', { name: 'p', repositories: [{ path: repo.dir, type: 'custom' }] })
    ).body as Body;
    expect(project.status).toBe('CREATED');
    expect(project.error).toMatch(/did not start automatically: .*model/i);
    const task = (await api('POST', '/api/tasks', { project_id: project.id, description: 'Waits' })).body;
    expect(task.state).toBe('CREATED');
    expect(task.error).toContain(`POST /api/projects/${project.id}/init`);
    expect(task.error).toContain('initializes itself once the project is READY');
  });
});
