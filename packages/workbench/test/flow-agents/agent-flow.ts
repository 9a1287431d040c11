import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { RunnerKind } from '../../src/runners/index.ts';
import { type Body, connect, eventually } from '../harness.ts';
import { codingReplies, commitTexts, planTexts } from './agent-script.ts';
import {
  eventsOf,
  type FlowWorkbench,
  sessionEnded,
  stageMs,
  timed,
  type twoRepositories,
} from './flow-helpers.ts';

// The five stages of flow.test.ts, driven over HTTP and the WebSocket, with whichever runner the settings
// or the project chose. The stages are run by a real agent process per turn (opencode starts in seconds,
// and eight knowledge layers start at once on a shared machine): every wait is long, none is a sleep.

export interface FlowRun {
  wb: FlowWorkbench;
  repos: ReturnType<typeof twoRepositories>;
  /** The runner config that must run every session, and its kind. */
  configId: string;
  kind: RunnerKind;
  /** Set as the project's default runner (else the global default from settings decides). */
  projectRunner?: string;
  /** Whose tool names the scripted coding turns call (default opencode's). */
  tools?: 'opencode' | 'keel';
  label: string;
}

/** Project knowledge → READY. Answers the project. */
export async function knowledgeStage(run: FlowRun): Promise<Body> {
  const { api } = run.wb;
  const done = timed(`${run.label} knowledge`);
  const created = await api('POST', '/api/projects', {
    name: 'Greeter',
    description: 'Says hello.',
    repositories: [
      { path: run.repos.frontend.dir, type: 'frontend', provider: 'other' },
      { path: run.repos.backend.dir, type: 'backend', provider: 'other' },
    ],
    ...(run.projectRunner ? { default_runner: run.projectRunner } : {}),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const project = created.body;
  // Knowledge generation starts with the project.
  expect(project.status).toBe('INITIALIZING');
  expect((await api('GET', `/api/projects/${project.id}/knowledge`)).body.layers).toHaveLength(8);
  const status = await eventually(
    async () => {
      const body = (await api('GET', `/api/projects/${project.id}`)).body;
      return body.status !== 'INITIALIZING' && body.status;
    },
    'knowledge',
    stageMs,
  );
  const knowledge = (await api('GET', `/api/projects/${project.id}/knowledge`)).body;
  expect(status, JSON.stringify(knowledge.layers.map((layer: Body) => layer.error))).toBe('READY');
  expect(knowledge.layers.map((layer: Body) => layer.status)).toEqual(Array(8).fill('done'));
  expect(knowledge.project_md).toContain('A greeting app.');
  expect(knowledge.constitution_md).toContain('Use two-space indentation.');
  expect(knowledge.constitution_md).toContain('One module per file.');
  for (const layer of knowledge.layers) {
    const session = (await api('GET', `/api/sessions/${layer.session_id}/status`)).body;
    expect(session).toMatchObject({
      kind: 'knowledge',
      status: 'succeeded',
      runner: run.kind,
      runner_config_id: run.configId,
      runner_session_id: expect.stringMatching(/^ses_/),
    });
  }
  // The layer prompts reached the model through the agent, grounded in the scan.
  const structure = run.wb.model.chatRequests.find((request) =>
    JSON.stringify(request.messages).includes('Describe the STRUCTURE'),
  );
  expect(JSON.stringify(structure?.messages)).toContain('automatic scan');
  done();
  return project;
}

/** Task init (no AI) and confirm: the workspace holds both clones. Answers the task with its work_dir. */
export async function initStage(run: FlowRun, project: Body): Promise<Body> {
  const { api } = run.wb;
  const created = await api('POST', '/api/tasks', { project_id: project.id, description: 'Add a greeting' });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const task = created.body;
  // Initialization starts with the task (the project is READY).
  expect(task.state).toBe('INITIALIZING');
  const initialized = await eventually(async () => {
    const body = (await api('GET', `/api/tasks/${task.id}`)).body;
    return ['done', 'failed'].includes(body.init.status) && body;
  }, 'task init');
  expect(initialized.init.status, JSON.stringify(initialized.init)).toBe('done');
  for (const file of ['frontend/src/app.js', 'backend/server.js', 'project.md', 'constitution.md']) {
    expect(existsSync(join(initialized.work_dir, file)), file).toBe(true);
  }
  expect((await api('POST', `/api/tasks/${task.id}/confirm-init`)).body.state).toBe('PLANNING');
  return initialized;
}

/** Plan, refined by a message and by a chat over the WebSocket, then locked into two todos; all one session. */
export async function planStage(run: FlowRun, task: Body): Promise<Body> {
  const { api } = run.wb;
  const done = timed(`${run.label} plan + todos`);
  // The first draft started with the confirmation of init.
  const planSession = (await api('GET', `/api/tasks/${task.id}`)).body.plan_session_id;
  expect(planSession).toEqual(expect.any(String));
  const client = await connect(run.wb.base);
  client.send({ type: 'subscribe', channel: `session:${planSession}` });
  const first = await sessionEnded(api, planSession, 'plan');
  expect(first).toMatchObject({ runner: run.kind, runner_config_id: run.configId });
  const conversation = first.runner_session_id;
  expect(conversation).toMatch(/^ses_/);
  expect((await api('GET', `/api/tasks/${task.id}`)).body.plan.trim()).toBe(planTexts.draft);

  // Each answer is saved (plan.md, the todo list) before the turn's status says it ended.
  const taskNow = async () => (await api('GET', `/api/tasks/${task.id}`)).body;
  const refine = await api('POST', `/api/tasks/${task.id}/plan`, { message: 'Mention the tests' });
  expect(refine.body.session.id).toBe(planSession);
  const refined = await sessionEnded(api, planSession, 'refined plan', first);
  expect((await taskNow()).plan.trim()).toBe(planTexts.refined);
  client.send({ type: 'chat', session_id: planSession, content: 'Make it shorter' });
  const chatted = await sessionEnded(api, planSession, 'chat plan', refined);
  expect((await taskNow()).plan.trim()).toBe(planTexts.chatted);
  // The refinements continued the agent's own conversation: the model saw the earlier answers again.
  const chat = run.wb.model.chatRequests.find((request) =>
    JSON.stringify(request.messages).includes('Make it shorter'),
  );
  expect(JSON.stringify(chat?.messages)).toContain('Add a greeting to both repositories, with tests.');

  expect((await api('POST', `/api/tasks/${task.id}/lock-plan`)).status).toBe(202);
  await sessionEnded(api, planSession, 'todos', chatted);
  const ready = await taskNow();
  expect(ready.state).toBe('TODO_READY');
  expect(ready.todos.map((todo: Body) => [todo.position, todo.title, todo.status])).toEqual([
    [1, 'Frontend greeting', 'pending'],
    [2, 'Backend greeting', 'pending'],
  ]);
  expect(JSON.parse(readFileSync(join(task.work_dir, 'todo.json'), 'utf8'))[1].expected_output).toBe(
    'edited server',
  );
  expect((await api('GET', `/api/sessions/${planSession}/status`)).body.runner_session_id).toBe(conversation);

  // The WebSocket saw the plan session's events once each, in order, with the agent's answers.
  await eventually(
    () =>
      client.messages.some(
        (m) => m.type === 'event' && JSON.stringify(m.event).includes('Frontend greeting'),
      ),
    'todo answer over the WebSocket',
  );
  const seqs = client.messages.filter((m) => m.type === 'event').map((m) => m.seq);
  expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
  const started = client.messages.filter(
    (m) => m.type === 'event' && (m.event as Body).type === 'runner_started',
  );
  expect(started.map((m) => (m.event as Body).runner)).toEqual(Array(4).fill(run.kind));
  client.socket.close();
  done();
  return ready;
}

/** Both todos, strictly in order, each really editing its repository through the agent's tools. */
export async function codingStage(run: FlowRun, task: Body): Promise<void> {
  const { api } = run.wb;
  const done = timed(`${run.label} coding`);
  run.wb.model.push(...codingReplies(task.work_dir, run.tools));
  expect((await api('POST', `/api/tasks/${task.id}/start-coding`)).body.state).toBe('CODING');
  const [first, second] = task.todos;
  const early = await api('POST', `/api/todos/${second.id}/execute`);
  expect(early.body.error?.code).toBe('TODO_OUT_OF_ORDER');
  for (const [todo, path] of [
    [first, 'frontend/src/greeting.js'],
    [second, 'backend/server.js'],
  ] as const) {
    const started = await api('POST', `/api/todos/${todo.id}/execute`);
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const session = await sessionEnded(api, started.body.session.id, `todo ${todo.position}`);
    expect(session).toMatchObject({ kind: 'coding', runner: run.kind, runner_config_id: run.configId });
    await eventually(
      async () => (await api('GET', `/api/todos/${todo.id}`)).body.status === 'done',
      `todo ${todo.position} done`,
    );
    const events = await eventsOf(api, session.id);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'tool_call', kind: 'file_edit', tool_name: expect.any(String), path }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'tool_result', kind: 'file_edit', ok: true }),
    );
  }
  const firstDiff = (await api('GET', `/api/todos/${first.id}/diff`)).body;
  expect(firstDiff.repositories.find((repo: Body) => repo.repository === 'frontend').files).toEqual([
    expect.objectContaining({ path: 'src/greeting.js', status: 'added' }),
  ]);
  expect(firstDiff.repositories.find((repo: Body) => repo.repository === 'backend').files).toEqual([]);
  await eventually(
    async () => (await api('GET', `/api/tasks/${task.id}`)).body.state === 'REVIEWING',
    'REVIEWING',
  );
  done();
}

/** The commit message (and an adjustment, resuming the review session), then submit-mr pushes both branches. */
export async function reviewStage(run: FlowRun, task: Body): Promise<void> {
  const { api } = run.wb;
  const done = timed(`${run.label} review`);
  const diff = (await api('GET', `/api/tasks/${task.id}/diff`)).body;
  expect(
    diff.repositories.map((repo: Body) => [repo.repository, repo.files.map((file: Body) => file.path)]),
  ).toEqual([
    ['frontend', ['src/greeting.js']],
    ['backend', ['server.js']],
  ]);
  expect(diff.repositories[1].patch).toContain("+export const word = 'hello world';");
  // The reviewer ran first (read-only, the same runner); then the commit message started.
  const reviewed = await eventually(
    async () => {
      const body = (await api('GET', `/api/tasks/${task.id}`)).body;
      return body.review?.status !== 'running' && body.review_session_id && body;
    },
    'the review',
    stageMs,
  );
  expect(reviewed.review).toMatchObject({ status: 'done', findings: [] });
  const reviewer = (await api('GET', `/api/sessions/${reviewed.review.session_id}/status`)).body;
  expect(reviewer).toMatchObject({ kind: 'reviewer', runner: run.kind, runner_config_id: run.configId });
  const reviewSession = reviewed.review_session_id;
  expect(reviewSession).toEqual(expect.any(String));
  const review = await sessionEnded(api, reviewSession, 'commit message');
  expect(review).toMatchObject({ kind: 'review', runner: run.kind, runner_config_id: run.configId });
  expect((await api('GET', `/api/tasks/${task.id}`)).body.commit_message).toBe(commitTexts.first);
  expect(
    (await api('POST', `/api/tasks/${task.id}/commit-message`, { message: 'say everyone' })).status,
  ).toBe(202);
  await sessionEnded(api, review.id, 'adjusted commit message', review);
  expect((await api('GET', `/api/tasks/${task.id}`)).body.commit_message).toBe(commitTexts.adjusted);

  const submitted = await api('POST', `/api/tasks/${task.id}/submit-mr`);
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
  expect(submitted.body.state).toBe('DONE');
  const branch = task.branch;
  expect(submitted.body.results).toEqual([
    expect.objectContaining({ repository: 'frontend', changed: true, branch, commit: expect.any(String) }),
    expect.objectContaining({ repository: 'backend', changed: true, branch, commit: expect.any(String) }),
  ]);
  // The branches reached the bare remotes with commits holding the agent's changes.
  const { frontend, backend } = run.repos;
  expect(frontend.git('show', `${branch}:src/greeting.js`)).toBe('export const greeting = "hi";');
  expect(frontend.git('log', '-1', '--format=%s', branch)).toBe('feat: greet everyone');
  expect(frontend.git('rev-parse', branch)).toBe(submitted.body.results[0].commit);
  expect(backend.git('show', `${branch}:server.js`)).toBe("export const word = 'hello world';");
  expect(backend.git('log', '-1', '--format=%B', branch)).toBe(commitTexts.adjusted);
  expect(backend.git('rev-list', '--count', `main..${branch}`)).toBe('1');
  done();
}

/** All five stages in order. */
export async function fullFlow(run: FlowRun): Promise<void> {
  const project = await knowledgeStage(run);
  const task = await initStage(run, project);
  const ready = await planStage(run, task);
  await codingStage(run, { ...task, todos: ready.todos });
  await reviewStage(run, task);
}
