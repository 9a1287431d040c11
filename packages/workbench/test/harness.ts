import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logPage } from '@keel/protocol/workbench';
import { eventually as poll, type ScriptedReply, startMockModel } from '@keel/testkit';
import { afterAll } from 'vitest';
import { createWorkbench, type WorkbenchOptions } from '../src/index.ts';
import { createRunnerRegistry } from '../src/runners/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions, not by types
export type Body = any;

/**
 * `eventually` from @keel/testkit with this suite's 15 s default: polls `check` until it answers something
 * truthy, for effects that land after a 202.
 */
export function eventually<T>(check: () => Promise<T> | T, what: string, timeoutMs = 15_000) {
  return poll(check, { what, timeoutMs });
}

const tempDirs: string[] = [];
// Registered in the root suite of every test file that imports the harness.
afterAll(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp directory, removed after the test file. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `wb-${prefix}-`));
  tempDirs.push(dir);
  return dir;
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  }).trim();
}

/** A real repository with a bare repository as origin (optionally accepting and recording push options). */
export function repoWithRemote(
  root: string,
  name: string,
  files: Record<string, string>,
  options: { pushOptions?: boolean; originUrl?: string } = {},
) {
  const bare = join(root, `${name}.git`);
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  git(root, 'init', '--bare', '-b', 'main', bare);
  const optionsFile = join(root, `${name}-push-options.txt`);
  if (options.pushOptions) {
    git(bare, 'config', 'receive.advertisePushOptions', 'true');
    const hook = join(bare, 'hooks', 'post-receive');
    writeFileSync(
      hook,
      `#!/bin/sh\ni=0\nwhile [ "$i" -lt "\${GIT_PUSH_OPTION_COUNT:-0}" ]; do\n  eval "echo \\"\\$GIT_PUSH_OPTION_$i\\"" >> '${optionsFile}'\n  i=$((i+1))\ndone\n`,
    );
    chmodSync(hook, 0o755);
  }
  git(dir, 'init', '-b', 'main');
  git(dir, 'config', 'user.name', 'Test');
  git(dir, 'config', 'user.email', 'test@keel.invalid');
  git(dir, 'config', 'commit.gpgsign', 'false');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-m', 'initial');
  git(dir, 'remote', 'add', 'origin', options.originUrl ?? bare);
  git(dir, 'push', bare, 'main');
  return {
    dir,
    bare,
    pushOptions: () => {
      try {
        return readFileSync(optionsFile, 'utf8').trim().split('\n');
      } catch {
        return [];
      }
    },
    git: (...args: string[]) => git(bare, ...args),
  };
}

/** A fake GitHub API: records `POST /repos/{o}/{r}/pulls` and answers like GitHub. */
export async function fakeGitHub() {
  const requests: { path: string; headers: IncomingMessage['headers']; body: Body }[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => {
      if (request.method === 'GET' && request.url === '/prd.md') {
        response
          .writeHead(200, { 'content-type': 'text/markdown' })
          .end('# PRD\n\nThe greeting must say hi.');
        return;
      }
      if (request.method === 'GET' && request.url === '/prd.html') {
        response
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<html><body><h1>Spec</h1><p>Be &amp; stay polite.</p><script>x()</script></body></html>');
        return;
      }
      const match = /^\/repos\/([^/]+)\/([^/]+)\/pulls$/.exec(request.url ?? '');
      if (request.method !== 'POST' || !match) {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
        return;
      }
      requests.push({ path: request.url ?? '', headers: request.headers, body: JSON.parse(text) });
      response
        .writeHead(201, { 'content-type': 'application/json' })
        .end(JSON.stringify({ number: 7, html_url: `https://github.com/${match[1]}/${match[2]}/pull/7` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export type Api = (
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<{ status: number; body: Body }>;

/** Calls a workbench at `base` as any HTTP client would. */
export function apiAt(base: string): Api {
  return async (method, path, body, headers = {}) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    let parsed: Body = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    // The one answer sent as stored text rather than through its schema: every page a test reads is
    // checked against the schema here (it throws on a field that drifted).
    if (method === 'GET' && response.ok && /^\/api\/sessions\/[^/]+\/logs(\?|$)/.test(path))
      logPage.parse(parsed);
    return { status: response.status, body: parsed };
  };
}

/** The words that start the reviewer's prompt at the start of stage 05. */
export const reviewerPrompt = 'Review this change before it becomes a merge request';

/** The reviewer's answer, once: these findings (none by default), as a JSON array in a fence. */
export function reviewerReply(findings: unknown[] = []): ScriptedReply {
  return {
    when: { lastMessageIncludes: reviewerPrompt },
    text: `Reviewed.\n\n\`\`\`json\n${JSON.stringify(findings)}\n\`\`\``,
  };
}

/** A script with a reviewer that finds nothing, first (so no catch-all reply answers it), unless it has its own. */
export function withReviewer(script: ScriptedReply[]): ScriptedReply[] {
  const own = script.some((reply) => reply.when?.lastMessageIncludes?.includes(reviewerPrompt));
  return own ? script : [reviewerReply(), ...script];
}

/**
 * The real workbench on a free port over temp WORKBENCH_HOME and RUNTIME_HOME, the real Keel runner, and
 * the scripted model. `api` calls it as any HTTP client would.
 */
export async function startWorkbench(
  script: ScriptedReply[] = [],
  options: { env?: Record<string, string>; configure?: boolean; workbench?: Partial<WorkbenchOptions> } = {},
) {
  const model = await startMockModel({ script: withReviewer(script) });
  const home = tempDir('home');
  const runtimeHome = tempDir('runtime');
  const env: Record<string, string | undefined> = {
    ...process.env,
    WORKBENCH_HOME: home,
    RUNTIME_HOME: runtimeHome,
    RUNTIME_MODEL: undefined,
    RUNTIME_MODEL_API_KEY: undefined,
    ...options.env,
  };
  const workbench = await createWorkbench({
    env,
    runners: createRunnerRegistry({
      keel: { env, retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 2 } },
    }),
    ...options.workbench,
  });
  const base = await workbench.listen(0);
  const api = apiAt(base);
  if (options.configure !== false) {
    const configured = await api('PUT', '/api/settings', {
      model: 'mock-model',
      base_url: model.url,
      api_key: 'sk-test-secret',
    });
    if (configured.status !== 200) throw new Error(`settings: ${JSON.stringify(configured.body)}`);
  }
  return {
    base,
    home,
    runtimeHome,
    model,
    workbench,
    api,
    async [Symbol.asyncDispose]() {
      await workbench.close();
      await model.close();
      rmSync(home, { recursive: true, force: true });
      rmSync(runtimeHome, { recursive: true, force: true });
    },
  };
}

type Message = { type: string; [key: string]: unknown };

/** A WebSocket client (Node's global WebSocket) that collects what the server sends. */
export async function connect(base: string, query = '') {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/ws${query}`);
  const messages: Message[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.addEventListener('close', (event) => resolve({ code: event.code, reason: event.reason })),
  );
  socket.addEventListener('message', (event) => messages.push(JSON.parse(String(event.data))));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no open')), 5000);
    const settle = () => {
      clearTimeout(timer);
      resolve();
    };
    socket.addEventListener('open', settle, { once: true });
    socket.addEventListener('error', settle, { once: true });
  });
  return {
    socket,
    messages,
    closed,
    send: (message: unknown) => socket.send(typeof message === 'string' ? message : JSON.stringify(message)),
    async next(match: (message: Message) => boolean, timeoutMs = 15_000): Promise<Message> {
      return eventually(() => messages.find(match), 'a matching WebSocket message', timeoutMs);
    },
  };
}

/** Knowledge replies for `count` repositories: every layer answered, with Conventions sections. */
export function knowledgeScript(count: number): ScriptedReply[] {
  const replies: ScriptedReply[] = [];
  for (let i = 0; i < count; i++) {
    replies.push(
      {
        when: { lastMessageIncludes: 'Describe the STRUCTURE' },
        text: '# Structure\n\nsrc/ holds code.\n\n## Conventions\n\n- Use two-space indentation.',
      },
      {
        when: { lastMessageIncludes: 'Describe the BUSINESS FLOW' },
        text: '# Business flow\n\nUsers greet.',
      },
      {
        when: { lastMessageIncludes: 'Describe the MODULES' },
        text: '# Modules\n\n- app\n\n## Conventions\n\n- One module per file.',
      },
      {
        when: { lastMessageIncludes: 'Write a short INDEX' },
        text: '# Index\n\nA greeting app. Entry: src/app.js.',
      },
    );
  }
  return replies;
}

/** Script of a one-repository project through knowledge, plan and todo list (`titles` in order). */
export function planningScript(repositories: number, titles: string[]): ScriptedReply[] {
  const todos = titles.map((title) => ({
    title,
    description: `Do ${title}`,
    expected_output: `${title} done`,
  }));
  return [
    ...knowledgeScript(repositories),
    { when: { lastMessageIncludes: 'Write the technical plan' }, text: '# Plan\n\nDo it.' },
    { when: { lastMessageIncludes: 'Break it into an ordered list of todos' }, text: JSON.stringify(todos) },
  ];
}

/** Drives a new project and task to CODING (knowledge, init, plan, todos); answers the task. */
/** Waits until a todo is done or failed, and answers it. */
export async function todoEnded(api: Api, todoId: string): Promise<Body> {
  await eventually(async () => {
    const status = (await api('GET', `/api/todos/${todoId}`)).body.status;
    return status === 'done' || status === 'failed';
  }, 'the todo to end');
  return (await api('GET', `/api/todos/${todoId}`)).body;
}

export async function taskInCoding(api: Api, repositories: { path: string; type: string }[]): Promise<Body> {
  // Knowledge, init and the first plan draft start by themselves.
  const project = (await api('POST', '/api/projects', { name: 'p', repositories })).body;
  await eventually(
    async () => (await api('GET', `/api/projects/${project.id}`)).body.status === 'READY',
    'READY',
  );
  const task = (await api('POST', '/api/tasks', { project_id: project.id, description: 'A task' })).body;
  await eventually(
    async () => (await api('GET', `/api/tasks/${task.id}`)).body.init.status === 'done',
    'init',
  );
  await api('POST', `/api/tasks/${task.id}/confirm-init`);
  await eventually(async () => (await api('GET', `/api/tasks/${task.id}`)).body.plan, 'plan');
  // The draft's turn ends just after plan.md is written: lock once the session is free.
  await eventually(async () => {
    const view = (await api('GET', `/api/tasks/${task.id}`)).body;
    return (await api('GET', `/api/sessions/${view.plan_session_id}/status`)).body.status === 'succeeded';
  }, 'plan turn');
  await api('POST', `/api/tasks/${task.id}/lock-plan`);
  await eventually(
    async () => (await api('GET', `/api/tasks/${task.id}`)).body.state === 'TODO_READY',
    'todos',
  );
  const coding = await api('POST', `/api/tasks/${task.id}/start-coding`);
  if (coding.body.state !== 'CODING') throw new Error(JSON.stringify(coding.body));
  return coding.body;
}
