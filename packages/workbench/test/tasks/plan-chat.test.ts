// Issue #38, point 1: a chat message in the plan session is a request to revise the plan, whether it runs at
// once or waits behind a turn (it was sent raw when queued), and an answer that is not a plan (a chat reply)
// does not replace plan.md. The commit message in the review session is framed the same way.
import { describe, expect, test } from 'vitest';
import {
  type Body,
  eventually,
  knowledgeScript,
  repoWithRemote,
  startWorkbench,
  tempDir,
} from '../harness.ts';

describe('chat in the plan session', () => {
  test('a message queued behind a plan turn is framed as a revision; a chat reply keeps plan.md', {
    timeout: 120_000,
  }, async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const repo = repoWithRemote(tempDir('plan-chat'), 'app', { 'README.md': '# app\n' });
    await using wb = await startWorkbench([
      ...knowledgeScript(1),
      { when: { lastMessageIncludes: 'Write the technical plan' }, text: '# Plan\n\nDo it.' },
      {
        when: { lastMessageIncludes: 'Add a risks section' },
        text: '# Plan v2\n\nDo it.\n\n## Risks',
        until: held,
      },
      { when: { lastMessageIncludes: 'Mention the tests' }, text: '# Plan v3\n\nDo it, with tests.' },
      { when: { lastMessageIncludes: 'Thanks' }, text: 'You are welcome!' },
    ]);
    const { api } = wb;
    const project = (
      await api('POST', '/api/projects', { name: 'p', repositories: [{ path: repo.dir, type: 'backend' }] })
    ).body;
    await eventually(
      async () => (await api('GET', `/api/projects/${project.id}`)).body.status === 'READY',
      'READY',
    );
    const task = (await api('POST', '/api/tasks', { project_id: project.id, description: 'A task' })).body;
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.init.status === 'done',
      'init',
    );
    const planning = (await api('POST', `/api/tasks/${task.id}/confirm-init`)).body;
    const sessionId = planning.plan_session_id;
    const idle = () =>
      eventually(
        async () => {
          const session = (await api('GET', `/api/sessions/${sessionId}/status`)).body;
          return session.status === 'succeeded' && !session.busy;
        },
        'the plan session to be idle',
        60_000,
      );
    const plan = async () => (await api('GET', `/api/tasks/${task.id}`)).body.plan as string | null;
    await eventually(async () => (await plan())?.startsWith('# Plan\n'), 'the first draft');
    await idle();

    // A refinement that takes a while; a message typed meanwhile waits in the queue.
    expect((await api('POST', `/api/tasks/${task.id}/plan`, { message: 'Add a risks section' })).status).toBe(
      202,
    );
    const queued = await api('POST', `/api/sessions/${sessionId}/messages`, { content: 'Mention the tests' });
    expect(queued.body).toMatchObject({ queued: true, position: 1 });
    release();
    await eventually(async () => (await plan())?.startsWith('# Plan v3'), 'the queued revision');
    // The model was asked for the revised plan, not sent the words alone.
    const asked = wb.model.chatRequests.find((request) =>
      String(request.messages?.at(-1)?.content).includes('Mention the tests'),
    );
    expect(String(asked?.messages?.at(-1)?.content)).toContain(
      'Answer with the complete revised plan as Markdown (it replaces plan.md).',
    );
    // The session's log shows what the user typed.
    await idle();
    const logs = (await api('GET', `/api/sessions/${sessionId}/logs?limit=1000`)).body.entries as Body[];
    expect(
      logs.some(
        (entry) =>
          entry.event.type === 'message' &&
          entry.event.role === 'user' &&
          entry.event.content === 'Mention the tests',
      ),
    ).toBe(true);

    // A chat reply is no plan: plan.md and its versions stay, and the log says why.
    const versions = (await api('GET', `/api/tasks/${task.id}/plan/versions`)).body;
    expect(
      (await api('POST', `/api/sessions/${sessionId}/messages`, { content: 'Thanks' })).body.queued,
    ).toBe(false);
    await eventually(async () => {
      const entries = (await api('GET', `/api/sessions/${sessionId}/logs?limit=1000`)).body.entries as Body[];
      return entries.some((entry) => entry.event.type === 'step' && entry.event.step === 'plan_kept');
    }, 'the plan kept');
    expect(await plan()).toMatch(/^# Plan v3/);
    expect((await api('GET', `/api/tasks/${task.id}/plan/versions`)).body).toEqual(versions);
  });
});
