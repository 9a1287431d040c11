import type { LogEntry, Session } from '@keel/protocol/workbench';
import { describe, expect, test } from 'vitest';
import { repoWithRemote, startWorkbench, tempDir } from '../../workbench/test/harness.ts';
import { createWorkbenchClient, WorkbenchApiError } from '../src/index.ts';
import { gate, patience, planningReplies, projectReady } from './world.ts';

/** The refusal a call ended with (fails the test when it succeeded). */
async function refusal(call: Promise<unknown>): Promise<WorkbenchApiError> {
  const error = await call.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  if (!(error instanceof WorkbenchApiError))
    throw new Error(`expected a WorkbenchApiError, got ${String(error)}`);
  return error;
}

describe('the five-stage flow through the client', () => {
  test('project, task, plan, todos, coding, review and a merge request pushed to a bare remote', {
    timeout: 120_000,
  }, async () => {
    const root = tempDir('client-flow');
    const repo = repoWithRemote(root, 'app', { 'src/app.js': 'console.log(1);\n' });
    // The last knowledge layer waits for the test: the project is still generating while it looks.
    const knowledgeHeld = gate();
    const [structure, flow, modules, index] = planningReplies();
    const script = [
      structure,
      flow,
      modules,
      { ...index, until: knowledgeHeld.promise },
      ...planningReplies().slice(4),
      {
        when: { lastMessageIncludes: 'Do todo 1 of 2' },
        toolCalls: [
          {
            name: 'write_file',
            arguments: { path: 'app/src/greeting.js', content: 'export const hi = "hello";\n' },
          },
        ],
      },
      { when: { lastRole: 'tool' as const }, text: 'Wrote the greeting.' },
      {
        when: { lastMessageIncludes: 'Do todo 2 of 2' },
        toolCalls: [
          {
            name: 'write_file',
            arguments: {
              path: 'app/src/app.js',
              content: 'import { hi } from "./greeting.js";\nconsole.log(hi);\n',
            },
          },
        ],
      },
      { when: { lastRole: 'tool' as const }, text: 'Used it.' },
      { when: { lastMessageIncludes: 'Write the commit message' }, text: 'feat: greet\n\nAdds a greeting.' },
      {
        when: { lastMessageIncludes: 'Adjust the commit message' },
        text: '```\nfeat: greet everyone\n\nAdds a greeting module and uses it.\n```',
      },
    ].filter((reply) => reply !== undefined);
    await using wb = await startWorkbench(script);
    const client = createWorkbenchClient({ baseUrl: wb.base });

    expect((await client.settings.check()).ready).toBe(true);
    const settings = await client.settings.get();
    expect(settings).toMatchObject({ model: 'mock-model', api_key_set: true });
    const flowTable = await client.flow();
    expect(flowTable.stages.map((stage) => stage.key)).toHaveLength(5);

    // Project: its knowledge starts by itself; init again while it runs is a 409.
    const project = await client.projects.create({
      name: 'Greeter',
      description: 'Says hello.',
      repositories: [{ path: repo.dir, type: 'frontend' }],
    });
    expect(project.status).toBe('INITIALIZING');
    expect((await client.projects.list()).map((each) => each.id)).toEqual([project.id]);
    const busyInit = await refusal(client.projects.init(project.id));
    expect([busyInit.status, busyInit.code]).toEqual([409, 'INVALID_STATE']);

    // A task made meanwhile waits for the project; its init by hand says why it cannot start.
    const task = await client.tasks.create({ project_id: project.id, description: 'Add a greeting' });
    expect(task.state).toBe('CREATED');
    const early = await refusal(client.tasks.init(task.id));
    expect([early.status, early.code, early.details?.project_id]).toEqual([
      409,
      'PROJECT_NOT_READY',
      project.id,
    ]);

    knowledgeHeld.open();
    await projectReady(client, project.id);
    const knowledge = await client.projects.knowledge(project.id);
    expect(knowledge.layers.map((layer) => layer.status)).toEqual(['done', 'done', 'done', 'done']);
    expect(knowledge.constitution_md).toContain('Use two-space indentation.');

    // 01 init: started by itself once the project is READY.
    const initialized = await client.tasks.waitFor(task.id, (view) => view.init.status === 'done', {
      signal: patience(),
    });
    expect(initialized.init.steps.map((step) => [step.name, step.status])).toEqual([
      ['clone:app', 'done'],
      ['skills', 'done'],
      ['knowledge', 'done'],
    ]);
    const initSession = initialized.init_session_id as string;
    expect((await client.sessions.waitFor(initSession, undefined, { signal: patience() })).status).toBe(
      'succeeded',
    );
    const initLog = await client.sessions.logs(initSession);
    expect(initLog.entries.filter((entry) => entry.event.type === 'step')).toHaveLength(6);

    // 02 plan: the first draft starts with the confirmation; followed over the WebSocket.
    const planning = await client.tasks.confirmInit(task.id);
    expect(planning.state).toBe('PLANNING');
    const planSession = planning.plan_session_id as string;
    const heard: LogEntry[] = [];
    const statuses: Session[] = [];
    const stopListening = new AbortController();
    const listening = client.sessions.subscribe(planSession, {
      onEvent: (entry) => heard.push(entry),
      onStatus: (session) => statuses.push(session),
      signal: stopListening.signal,
    });
    const drafted = await client.sessions.waitFor(planSession, undefined, { signal: patience() });
    expect(drafted).toMatchObject({ kind: 'plan', status: 'succeeded', busy: false });
    expect((await client.tasks.get(task.id)).plan).toContain('- step 30');
    const refine = await client.tasks.plan(task.id, { message: 'Mention the tests' });
    expect(refine.session.id).toBe(planSession);
    expect(refine.session.busy).toBe(true);
    await client.sessions.waitFor(planSession, undefined, { signal: patience() });
    expect((await client.tasks.get(task.id)).plan).toContain('Plan v2');
    expect((await client.tasks.planVersions(task.id)).map((version) => version.version)).toEqual([1, 2]);

    // 03 todos, in the same session.
    const locked = await client.tasks.lockPlan(task.id);
    expect(locked.task.state).toBe('PLAN_LOCKED');
    const ready = await client.tasks.waitFor(task.id, (view) => view.state === 'TODO_READY', {
      signal: patience(),
    });
    expect(ready.todos.map((todo) => [todo.position, todo.title, todo.status])).toEqual([
      [1, 'Greeting module', 'pending'],
      [2, 'Use it', 'pending'],
    ]);
    const [first, second] = await client.tasks.todos(task.id);
    if (!first || !second) throw new Error('two todos');

    // 04 coding: in order (the second first is a 409), then Run all.
    expect((await client.tasks.startCoding(task.id)).state).toBe('CODING');
    const outOfOrder = await refusal(client.todos.execute(second.id));
    expect([outOfOrder.status, outOfOrder.code]).toEqual([409, 'TODO_OUT_OF_ORDER']);
    expect((await client.tasks.runAll(task.id)).state).toBe('CODING');
    await client.tasks.waitFor(task.id, (view) => view.state === 'REVIEWING', { signal: patience() });
    const firstDone = await client.todos.get(first.id);
    expect(firstDone.status).toBe('done');
    const firstDiff = await client.todos.diff(first.id);
    expect(firstDiff.repositories[0]?.files).toEqual([
      expect.objectContaining({ path: 'src/greeting.js', status: 'added' }),
    ]);

    // 05 review: the reviewer, then the commit message, both by themselves; adjusted by message.
    const diff = await client.tasks.diff(task.id);
    expect(diff.repositories.map((each) => [each.repository, each.files.map((file) => file.path)])).toEqual([
      ['app', ['src/app.js', 'src/greeting.js']],
    ]);
    const reviewed = await client.tasks.waitFor(
      task.id,
      (view) => view.review?.status === 'done' && Boolean(view.commit_message?.startsWith('feat: greet')),
      { signal: patience() },
    );
    await client.sessions.waitFor(reviewed.review_session_id as string, undefined, { signal: patience() });
    const adjusting = await client.tasks.commitMessage(task.id, { message: 'say everyone' });
    await client.sessions.waitFor(adjusting.session.id, undefined, { signal: patience() });
    expect((await client.tasks.get(task.id)).commit_message).toMatch(/^feat: greet everyone/);

    const done = await client.tasks.submitMr(task.id);
    expect(done.state).toBe('DONE');
    expect(done.results).toEqual([
      expect.objectContaining({
        repository: 'app',
        changed: true,
        branch: task.branch,
        commit: expect.any(String),
      }),
    ]);
    expect(repo.git('show', `${task.branch}:src/greeting.js`)).toContain('hello');
    expect(repo.git('log', '-1', '--format=%s', task.branch)).toBe('feat: greet everyone');

    // The subscription heard the plan session's log once each, in order, as the REST pages hold it.
    stopListening.abort();
    await listening;
    const pages: LogEntry[] = [];
    for (let after = 0, more = true; more; ) {
      const page = await client.sessions.logs(planSession, { after, limit: 5 });
      pages.push(...page.entries);
      after = page.next_cursor;
      more = page.has_more;
    }
    expect(heard.map((entry) => entry.seq)).toEqual(pages.map((entry) => entry.seq));
    expect(heard).toEqual(pages);
    expect(heard.some((entry) => entry.event.type === 'text_delta')).toBe(true);
    expect(statuses.at(-1)?.busy).toBe(false);
  });
});
