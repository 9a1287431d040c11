// Issue #38, point 9: tokens are counted per session over all its turns (not the last turn's only), per todo
// and per task, with the cost where the model's price is known (the runtime's price table).
import { describe, expect, test } from 'vitest';
import {
  type Body,
  eventually,
  knowledgeScript,
  repoWithRemote,
  startWorkbench,
  tempDir,
} from '../harness.ts';

const total = (entries: Body[]) =>
  entries
    .filter((entry) => entry.event.type === 'usage')
    .reduce((sum, entry) => sum + entry.event.usage.total_tokens, 0);

describe('tokens and cost', () => {
  test('a session sums its turns, a todo shows its session, the task sums them all, with the cost', {
    timeout: 120_000,
  }, async () => {
    const repo = repoWithRemote(tempDir('usage'), 'app', { 'README.md': '# app\n' });
    await using wb = await startWorkbench([
      ...knowledgeScript(1),
      { when: { lastMessageIncludes: 'Write the technical plan' }, text: '# Plan\n\nDo it.' },
      { when: { lastMessageIncludes: 'Add a risks section' }, text: '# Plan v2\n\nDo it.\n\n## Risks' },
      {
        when: { lastMessageIncludes: 'Break it into an ordered list of todos' },
        text: '[{"title": "One", "description": "Do one", "expected_output": "one"}]',
      },
      { when: { lastMessageIncludes: 'Do todo 1 of 1' }, text: 'Did it.' },
    ]);
    const { api } = wb;
    // A model of the runtime's price table: its turns have a cost.
    expect((await api('PUT', '/api/settings', { model: 'gpt-4o-mini' })).status).toBe(200);
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
    const sessionId = (await api('POST', `/api/tasks/${task.id}/confirm-init`)).body.plan_session_id;
    const idle = (id: string) =>
      eventually(async () => {
        const session = (await api('GET', `/api/sessions/${id}/status`)).body;
        return session.status === 'succeeded' && !session.busy;
      }, `session ${id} to be idle`);
    await eventually(async () => (await api('GET', `/api/tasks/${task.id}`)).body.plan, 'the first draft');
    await idle(sessionId);
    expect((await api('POST', `/api/tasks/${task.id}/plan`, { message: 'Add a risks section' })).status).toBe(
      202,
    );
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.plan?.includes('## Risks'),
      'the second draft',
    );
    await idle(sessionId);

    // Two turns, each with its usage event: the session's usage is their sum, with a cost.
    const logs = (await api('GET', `/api/sessions/${sessionId}/logs`)).body.entries as Body[];
    expect(logs.filter((entry) => entry.event.type === 'usage')).toHaveLength(2);
    const plan = (await api('GET', `/api/sessions/${sessionId}/status`)).body;
    expect(plan.usage.total_tokens).toBe(total(logs));
    expect(plan.usage.cost_usd).toBeGreaterThan(0);

    await api('POST', `/api/tasks/${task.id}/lock-plan`);
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.state === 'TODO_READY',
      'todos',
    );
    await api('POST', `/api/tasks/${task.id}/start-coding`);
    const todo = (await api('GET', `/api/tasks/${task.id}`)).body.todos[0];
    expect((await api('POST', `/api/todos/${todo.id}/execute`)).status).toBe(202);
    await eventually(
      async () => (await api('GET', `/api/todos/${todo.id}`)).body.status === 'done',
      'the todo to be done',
    );

    // The todo is done just before its session's end (and usage) is written.
    await idle((await api('GET', `/api/todos/${todo.id}`)).body.session_id);
    const view = (await api('GET', `/api/tasks/${task.id}`)).body;
    const done = view.todos[0];
    const todoSession = (await api('GET', `/api/sessions/${done.session_id}/status`)).body;
    expect(done.usage).toEqual(todoSession.usage);
    expect(done.usage.total_tokens).toBeGreaterThan(0);
    // Every session of the task once, its todo's too.
    const sessions = new Map<string, Body>(view.sessions.map((session: Body) => [session.id, session.usage]));
    sessions.set(done.session_id, done.usage);
    const counted = [...sessions.values()].filter(Boolean);
    expect(view.usage.total_tokens).toBe(counted.reduce((sum, usage) => sum + usage.total_tokens, 0));
    expect(view.usage.total_tokens).toBeGreaterThan(plan.usage.total_tokens);
    expect(view.usage.cost_usd).toBeCloseTo(
      counted.reduce((sum, usage) => sum + (usage.cost_usd ?? 0), 0),
      10,
    );
    // The todo list was written in the plan session too: a third turn, counted.
    const planNow = (await api('GET', `/api/sessions/${sessionId}/status`)).body;
    expect(planNow.usage.total_tokens).toBeGreaterThan(plan.usage.total_tokens);
    expect(view.sessions.find((session: Body) => session.id === sessionId).usage).toEqual(planNow.usage);
  });
});
