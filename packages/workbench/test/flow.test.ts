import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { githubUrl, flowScript as script } from './flow-script.ts';
import {
  type Body,
  connect,
  eventually,
  fakeGitHub,
  repoWithRemote,
  startWorkbench,
  tempDir,
} from './harness.ts';

/** A 1×1 PNG. */
const pixel =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

// The repository's own test, which needs an npm dependency (`greeting-check`, installed by setup).
const greetingTest = `const assert = require('node:assert');
const fs = require('node:fs');
const { saysHello } = require('greeting-check');
require('node:test')('the greeting says hello', () => {
  if (fs.existsSync('src/greeting.js')) assert.ok(saysHello(fs.readFileSync('src/greeting.js', 'utf8')));
});
`;

/**
 * Gives the repository at `dir` the dependency its test needs, as a real project has one: package.json and
 * the package-lock.json a real `npm install` wrote, committed, and no node_modules. There is no registry
 * here, so the package is a tarball made by `npm pack` and committed in the repository (`file:vendor/…`).
 */
function addGreetingCheck(root: string, dir: string): void {
  const source = join(root, 'greeting-check-src');
  mkdirSync(source, { recursive: true });
  writeFileSync(join(source, 'package.json'), JSON.stringify({ name: 'greeting-check', version: '1.0.0' }));
  writeFileSync(join(source, 'index.js'), 'exports.saysHello = (text) => /hello/.test(text);\n');
  mkdirSync(join(dir, 'vendor'));
  execFileSync('npm', ['pack', '--pack-destination', join(dir, 'vendor'), '--loglevel=error'], {
    cwd: source,
  });
  const manifest = {
    name: 'fe',
    scripts: { test: 'node --test' },
    dependencies: { 'greeting-check': 'file:vendor/greeting-check-1.0.0.tgz' },
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir });
  rmSync(join(dir, 'node_modules'), { recursive: true });
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\n');
  execFileSync('git', ['add', '-A'], { cwd: dir });
  execFileSync('git', ['commit', '-q', '-m', 'the test needs greeting-check'], { cwd: dir });
}

describe('the five-stage flow over HTTP and WebSocket', () => {
  const root = tempDir('repos');
  const saved = { ...process.env };
  beforeAll(() => {
    // Pushes to the "GitHub" remote URL go to its bare repository (pushInsteadOf, for the git commands of this process).
    Object.assign(process.env, {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: `url.${join(root, 'backend.git')}.pushInsteadOf`,
      GIT_CONFIG_VALUE_0: githubUrl,
    });
  });
  afterAll(() => {
    process.env = saved;
  });

  test('project knowledge, then a task from init to a pushed merge request', {
    timeout: 240_000,
  }, async () => {
    const frontend = repoWithRemote(
      root,
      'frontend',
      {
        'src/app.js': 'console.log(1);\n',
        // The repository's own test: the greeting, once there is one, says hello.
        'test/greeting.test.js': greetingTest,
      },
      { pushOptions: true },
    );
    addGreetingCheck(root, frontend.dir);
    const backend = repoWithRemote(
      root,
      'backend',
      { 'server.js': "export const word = 'hello';\n" },
      { originUrl: githubUrl },
    );
    const github = await fakeGitHub();
    await using wb = await startWorkbench(script);
    const { api } = wb;
    // The PRD documents are served from 127.0.0.1 too, which PRD links reach only when allowed on purpose.
    expect(
      (
        await api('PUT', '/api/settings', {
          github_api_url: github.url,
          github_token: 'ghp_test',
          prd_links: { allowed_hosts: ['127.0.0.1'] },
        })
      ).status,
    ).toBe(200);

    // Project and knowledge.
    const created = await api('POST', '/api/projects', {
      name: 'Greeter',
      description: 'Says hello.',
      repositories: [
        { path: frontend.dir, type: 'frontend', provider: 'gitlab' },
        { path: backend.dir, type: 'backend', provider: 'github' },
      ],
    });
    expect(created.status).toBe(201);
    const project = created.body;
    // Knowledge generation starts by itself.
    expect(project.status).toBe('INITIALIZING');
    // The frontend's setup is found from its lockfile; the user lets tasks run it (a privileged change).
    expect(project.repositories.map((repo: Body) => repo.setup)).toEqual([
      { command: 'npm ci', timeout_ms: 600_000 },
      null,
    ]);
    expect((await api('PUT', `/api/projects/${project.id}`, { run_setup: true })).body.run_setup).toBe(true);
    expect((await api('GET', `/api/projects/${project.id}/knowledge`)).body.layers).toHaveLength(8);
    await eventually(
      async () => (await api('GET', `/api/projects/${project.id}`)).body.status === 'READY',
      'project READY',
    );
    const knowledge = (await api('GET', `/api/projects/${project.id}/knowledge`)).body;
    expect(knowledge.layers.map((layer: Body) => layer.status)).toEqual(Array(8).fill('done'));
    expect(knowledge.layers.every((layer: Body) => layer.content && layer.session_id)).toBe(true);
    expect(knowledge.project_md).toContain('## frontend (frontend)');
    expect(knowledge.project_md).toContain('A greeting app.');
    expect(knowledge.constitution_md).toContain('Use two-space indentation.');
    expect(knowledge.constitution_md).toContain('One module per file.');
    const layerSession = (await api('GET', `/api/sessions/${knowledge.layers[0].session_id}/status`)).body;
    expect(layerSession).toMatchObject({ kind: 'knowledge', status: 'succeeded', runner: 'keel' });
    // Each layer prompt was grounded in the repository's scan.
    const structurePrompt = wb.model.chatRequests.find((request) =>
      JSON.stringify(request.messages).includes('Describe the STRUCTURE'),
    );
    expect(JSON.stringify(structurePrompt?.messages)).toContain('automatic scan');

    // A skill linked to the project.
    const skill = (
      await api('POST', '/api/skills', {
        name: 'greeting-style',
        description: 'How we greet',
        content: 'Always say hi.',
      })
    ).body;
    expect(
      (await api('POST', `/api/skills/${skill.id}/link`, { project_id: project.id, linked: true })).body
        .project_ids,
    ).toEqual([project.id]);

    // 01 init.
    const task = (
      await api('POST', '/api/tasks', {
        project_id: project.id,
        description: 'Add a greeting',
        prd_links: [`${github.url}/prd.md`, `${github.url}/prd.html`],
        images: [{ data: pixel, media_type: 'image/png', filename: 'mock.png' }],
      })
    ).body;
    // Initialization starts by itself (the project is READY).
    expect(task).toMatchObject({
      state: 'INITIALIZING',
      branch: expect.stringMatching(/^keel\/add-a-greeting-[a-z0-9]{6}$/),
    });
    const initialized = await eventually(async () => {
      const body = (await api('GET', `/api/tasks/${task.id}`)).body;
      return body.init.status === 'done' && body;
    }, 'init done');
    expect(initialized.state).toBe('INITIALIZING');
    expect(initialized.init.steps.map((step: Body) => step.name)).toEqual([
      'clone:frontend',
      'clone:backend',
      'setup:frontend',
      'skills',
      'knowledge',
    ]);
    // Setup installed the frontend's dependency in its workspace (the backend has nothing to install).
    expect(initialized.init.steps[2].detail).toMatch(/^`npm ci` succeeded in/);
    const workDir = initialized.work_dir;
    for (const file of [
      'frontend/node_modules/greeting-check/index.js',
      'frontend/src/app.js',
      'backend/server.js',
      '.skills/greeting-style/SKILL.md',
      'project.md',
      'constitution.md',
    ]) {
      expect(existsSync(join(workDir, file)), file).toBe(true);
    }
    const initLog = (await api('GET', `/api/sessions/${initialized.init_session_id}/logs`)).body;
    expect(
      initLog.entries.filter((entry: Body) => entry.event.type === 'step' && entry.event.status === 'done'),
    ).toHaveLength(5);
    const confirmed = (await api('POST', `/api/tasks/${task.id}/confirm-init`)).body;
    expect(confirmed.state).toBe('PLANNING');

    // 02 plan: the first draft starts with the confirmation, refined in the same runner session; watched
    // over the WebSocket.
    const planSession = confirmed.plan_session_id;
    expect(planSession).toEqual(expect.any(String));
    const client = await connect(wb.base);
    client.send({ type: 'subscribe', channel: `session:${planSession}` });
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.plan?.includes('# Plan'),
      'plan.md',
    );
    const planPrompt = wb.model.chatRequests.find((request) =>
      JSON.stringify(request.messages).includes('Write the technical plan'),
    );
    expect(JSON.stringify(planPrompt?.messages)).toContain('The greeting must say hi.');
    expect(JSON.stringify(planPrompt?.messages)).toContain('Be & stay polite.');
    expect(JSON.stringify(planPrompt?.messages)).not.toContain('x()');
    expect(JSON.stringify(planPrompt?.messages)).toContain(pixel);
    await eventually(
      () => client.messages.some((m) => m.type === 'status' && (m.session as Body).status === 'succeeded'),
      'plan turn status',
    );
    const refine = await api('POST', `/api/tasks/${task.id}/plan`, { message: 'Mention the tests' });
    expect(refine.body.session.id).toBe(planSession);
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.plan?.includes('Plan v2'),
      'refined plan',
    );
    // A chat message on the plan session refines plan.md too.
    client.send({ type: 'chat', session_id: planSession, content: 'Make it shorter' });
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.plan?.includes('Plan v3'),
      'chat plan',
    );
    await eventually(
      async () => (await api('GET', `/api/sessions/${planSession}/status`)).body.status === 'succeeded',
      'idle',
    );
    const planRow = (await api('GET', `/api/sessions/${planSession}/status`)).body;
    const runtimeSession = planRow.runner_session_id;
    expect(runtimeSession).toBeTruthy();

    // 03 todos, in the same runner session.
    expect((await api('POST', `/api/tasks/${task.id}/lock-plan`)).status).toBe(202);
    const ready = await eventually(async () => {
      const body = (await api('GET', `/api/tasks/${task.id}`)).body;
      return body.state === 'TODO_READY' && body;
    }, 'TODO_READY');
    expect(ready.todos.map((todo: Body) => [todo.position, todo.title, todo.status])).toEqual([
      [1, 'Frontend greeting', 'pending'],
      [2, 'Backend greeting', 'pending'],
    ]);
    expect(JSON.parse(readFileSync(join(workDir, 'todo.json'), 'utf8'))[1].expected_output).toBe(
      'edited server',
    );
    expect((await api('GET', `/api/sessions/${planSession}/status`)).body.runner_session_id).toBe(
      runtimeSession,
    );
    expect((await api('POST', `/api/tasks/${task.id}/start-coding`)).body.state).toBe('CODING');

    // 04 coding, strictly in order.
    const [first, second] = ready.todos;
    const early = await api('POST', `/api/todos/${second.id}/execute`);
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('TODO_OUT_OF_ORDER');
    expect((await api('POST', `/api/todos/${first.id}/execute`)).status).toBe(202);
    // The baseline, the todo's turn, its checks, one repair turn and the checks again: `npm test` runs three
    // times in the sandbox, which takes a while on a busy machine.
    await eventually(
      async () => (await api('GET', `/api/todos/${first.id}`)).body.status === 'done',
      'todo 1 done',
      90_000,
    );
    // The baseline on the untouched workspace passed: the installed dependency is there for the test.
    const baseline = (await api('GET', `/api/tasks/${task.id}`)).body.baseline;
    expect(baseline).toMatchObject({ status: 'done', error: null });
    expect(baseline.results).toEqual([
      expect.objectContaining({ repository: 'frontend', name: 'test', passed: true, outcome: 'passed' }),
    ]);
    // Its repository's real test failed on its first answer (the change's fault, not the environment's)
    // and passed after exactly one repair turn.
    const firstDone = (await api('GET', `/api/todos/${first.id}`)).body;
    expect(firstDone.checks).toEqual([
      expect.objectContaining({
        repository: 'frontend',
        name: 'test',
        command: 'npm test',
        passed: true,
        baseline: 'passed',
      }),
    ]);
    expect(firstDone.error_code ?? null).toBeNull();
    const repairs = wb.model.chatRequests.filter((request) =>
      String(request.messages?.at(-1)?.content).includes('These checks fail after your changes'),
    );
    expect(repairs).toHaveLength(1);
    expect(String(repairs[0]?.messages?.at(-1)?.content)).toContain('the greeting says hello');
    expect(String(repairs[0]?.messages?.at(-1)?.content)).not.toMatch(/Cannot find module|not found/);
    const firstDiff = (await api('GET', `/api/todos/${first.id}/diff`)).body;
    expect(firstDiff.repositories.find((repo: Body) => repo.repository === 'frontend').files).toEqual([
      expect.objectContaining({ path: 'src/greeting.js', status: 'added' }),
    ]);
    expect(firstDiff.repositories.find((repo: Body) => repo.repository === 'backend').files).toEqual([]);
    expect((await api('POST', `/api/todos/${second.id}/execute`)).status).toBe(202);
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.state === 'REVIEWING',
      'REVIEWING',
    );

    // 05 review.
    const diff = (await api('GET', `/api/tasks/${task.id}/diff`)).body;
    expect(
      diff.repositories.map((repo: Body) => [repo.repository, repo.files.map((file: Body) => file.path)]),
    ).toEqual([
      ['frontend', ['src/greeting.js']],
      ['backend', ['server.js']],
    ]);
    expect(diff.repositories[1].patch).toContain("+export const word = 'hello world';");
    // The reviewer ran first (read-only, its own session) and found nothing; then the commit message.
    await eventually(
      async () => (await api('GET', `/api/tasks/${task.id}`)).body.review?.status === 'done',
      'the review',
    );
    // The commit message was written by itself once the review ended.
    await eventually(
      async () =>
        (await api('GET', `/api/tasks/${task.id}`)).body.commit_message?.startsWith('feat: greet in'),
      'message',
    );
    const reviewSession = (await api('GET', `/api/tasks/${task.id}`)).body.review_session_id;
    await eventually(
      async () => (await api('GET', `/api/sessions/${reviewSession}/status`)).body.status === 'succeeded',
      'review turn',
    );
    expect(
      (await api('POST', `/api/tasks/${task.id}/commit-message`, { message: 'say everyone' })).status,
    ).toBe(202);
    await eventually(
      async () =>
        (await api('GET', `/api/tasks/${task.id}`)).body.commit_message?.startsWith('feat: greet everyone'),
      'adjusted',
    );
    // A chat message in the review session asks for the commit message too (framed as the endpoint does).
    await eventually(
      async () => (await api('GET', `/api/sessions/${reviewSession}/status`)).body.busy === false,
      'the review session idle',
    );
    const chat = await api('POST', `/api/sessions/${reviewSession}/messages`, {
      content: 'Keep the subject',
    });
    expect(chat.body.queued).toBe(false);
    await eventually(
      async () =>
        (await api('GET', `/api/tasks/${task.id}`)).body.commit_message?.includes('both apps, subject kept'),
      'the message from the chat',
    );
    const chatPrompt = wb.model.chatRequests.find((request) =>
      String(request.messages?.at(-1)?.content).includes('Keep the subject'),
    );
    expect(String(chatPrompt?.messages?.at(-1)?.content)).toContain(
      'Adjust the commit message: Keep the subject',
    );
    await eventually(
      async () => (await api('GET', `/api/sessions/${reviewSession}/status`)).body.busy === false,
      'the chat turn',
    );
    const submitted = await api('POST', `/api/tasks/${task.id}/submit-mr`);
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.state).toBe('DONE');
    const branch = task.branch;
    expect(submitted.body.results).toEqual([
      expect.objectContaining({
        repository: 'frontend',
        changed: true,
        branch,
        provider: 'gitlab',
        commit: expect.any(String),
      }),
      expect.objectContaining({
        repository: 'backend',
        changed: true,
        branch,
        provider: 'github',
        mr_url: 'https://github.com/acme/backend/pull/7',
      }),
    ]);
    // The branches reached the bare remotes with commits holding the changes.
    expect(frontend.git('show', `${branch}:src/greeting.js`)).toContain('greeting = "hello"');
    expect(frontend.git('log', '-1', '--format=%s', branch)).toBe('feat: greet everyone');
    expect(backend.git('show', `${branch}:server.js`)).toContain('hello world');
    // GitLab got its merge-request push options; "GitHub" got its pull request.
    expect(frontend.pushOptions()).toEqual([
      'merge_request.create',
      'merge_request.target=main',
      'merge_request.title=feat: greet everyone',
      'merge_request.description=Adds a greeting to the frontend and the backend: both apps, subject kept.',
    ]);
    expect(github.requests).toHaveLength(1);
    expect(github.requests[0]).toMatchObject({
      path: '/repos/acme/backend/pulls',
      body: { head: branch, base: 'main', title: 'feat: greet everyone' },
    });
    expect(github.requests[0]?.headers.authorization).toBe('Bearer ghp_test');

    // The WebSocket saw the plan session's events once each, in order.
    const seqs = client.messages.filter((m) => m.type === 'event').map((m) => m.seq);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    expect(client.messages.some((m) => m.type === 'event' && (m.event as Body).type === 'text_delta')).toBe(
      true,
    );
    client.socket.close();
    await github.close();
  });
});
