import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  createTempDir,
  type MockModelOptions,
  pathWithout,
  type ScriptedReply,
  startMockModel,
} from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { keel } from './keel-process.ts';
import { scenario } from './scenario.ts';

interface Check {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
  server?: string;
  models?: Array<{ id: string; context_length?: number; tools?: boolean }>;
}

/** The model's answer to doctor's tool-calling check: the tool it is offered, called (every time asked). */
const callsTheTool: ScriptedReply = {
  repeat: true,
  toolCalls: [{ name: 'report_status', arguments: { status: 'ready' } }],
};

/** `keel doctor --json -w <workdir>`: its exit code and checks by name. */
async function doctor(env: Record<string, string>, workdir: string) {
  const out = await keel(['doctor', '--json', '-w', workdir], env);
  const { checks } = JSON.parse(out.stdout) as { checks: Check[] };
  const check = (name: string) => {
    const found = checks.find((entry) => entry.name === name);
    if (!found) throw new Error(`no ${name} check in ${out.stdout}`);
    return found;
  };
  return { ...out, checks, check };
}

/** A local address where nothing listens: a port the system gave out, closed again. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/v1`;
}

/** A real HTTP endpoint that refuses every key but `accepted` (HTTP 401), recording the keys it was sent. */
async function keyedEndpoint(accepted: string) {
  const sent: string[] = [];
  const server: Server = createServer((request, response) => {
    sent.push(String(request.headers.authorization ?? ''));
    const ok = request.headers.authorization === `Bearer ${accepted}`;
    response.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify(ok ? { data: [{ id: 'mock-model' }] } : { error: { message: 'Incorrect API key' } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    sent,
    async [Symbol.asyncDispose]() {
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Whether bubblewrap confines a command on this machine (then a healthy setup has it). */
const bwrapWorks =
  spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-pid', '--unshare-net', 'true']).status === 0;

describe('keel doctor', () => {
  test('a healthy setup: every check ok or warn, the model listed by its endpoint, exit 0', async () => {
    await using s = await scenario([callsTheTool]);
    // Without a working bubblewrap here, the sandbox is turned off on purpose (a warning, not a failure).
    if (!bwrapWorks) await writeFile(join(s.home, 'config.json'), '{"sandbox":{"enabled":false}}');
    const { code, checks, check, stderr } = await doctor(s.env, s.repo.path);

    expect(stderr).toBe('');
    expect(checks.filter((entry) => entry.status === 'fail')).toEqual([]);
    expect(code).toBe(0);
    expect(checks.map((entry) => entry.name)).toEqual([
      'node',
      'git',
      'runtime-home',
      'store',
      'workdir',
      'project-config',
      'model',
      'model-endpoint',
      'tool-calling',
      'sandbox',
      'language-servers',
    ]);
    expect(check('node').detail).toContain(process.version);
    expect(check('git').detail).toMatch(/^git version \d/);
    expect(check('model')).toMatchObject({
      status: 'ok',
      detail: `mock-model at ${s.model.url}, no API key sent`,
    });
    expect(check('model-endpoint')).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining('it lists mock-model'),
      models: [{ id: 'mock-model' }],
    });
    expect(check('tool-calling')).toEqual({
      name: 'tool-calling',
      status: 'ok',
      detail: 'mock-model called the tool it was offered: tool calling works (profile generic).',
    });
    expect(check('workdir').detail).toContain('in the git repository');
    expect(check('store').detail).toBe(`SQLite at ${join(s.home, 'keel.db')}: reachable`);
    expect(check('sandbox').status).toBe(bwrapWorks ? 'ok' : 'warn');
    // Every check that is not ok says what to do.
    for (const entry of checks) if (entry.status !== 'ok') expect(entry.fix).toBeTruthy();
  });

  test('text output: a line per check, the fix under what is not ok, a summary', async () => {
    await using s = await scenario([callsTheTool]);
    const out = await keel(['doctor', '-w', s.repo.path], { ...s.env, RUNTIME_MODEL: 'other-model' });

    expect(out.stdout).toMatch(/^ok {4}node {14}Node v\d+/m);
    expect(out.stdout).toMatch(
      /^warn {2}model-endpoint {4}.* but it does not list other-model \(it lists mock-model\)\.\n {24}→ Check the model name: model \(RUNTIME_MODEL, --model\)/m,
    );
    // The endpoint's models under its line; then whether tool calling works.
    expect(out.stdout).toMatch(/^ {24}→ Check the model name.*\n {24}· mock-model\n/m);
    expect(out.stdout).toMatch(/^ok {4}tool-calling {6}other-model called the tool it was offered/m);
    expect(out.stdout).toMatch(/\n\n0 failures, \d+ warnings?\.\n$/);
    expect(out.code).toBe(0);
  });

  test('a refused endpoint fails, naming the URL and where it is set; exit 1', async () => {
    await using s = await scenario([callsTheTool]);
    const url = await closedPortUrl();
    const { code, check } = await doctor({ ...s.env, RUNTIME_MODEL_BASE_URL: url }, s.repo.path);

    const endpoint = check('model-endpoint');
    expect(endpoint.status).toBe('fail');
    expect(endpoint.detail).toContain(
      `Could not reach ${url}: the connection was refused (nothing listens there)`,
    );
    expect(endpoint.detail).toContain('RUNTIME_MODEL_BASE_URL, --model-base-url');
    expect(endpoint.fix).toContain('keel config set model_base_url <url>');
    expect(code).toBe(1);
  });

  test('a key the endpoint refuses (401) fails naming RUNTIME_MODEL_API_KEY, never printing the key', async () => {
    await using s = await scenario([callsTheTool]);
    await using endpoint = await keyedEndpoint('the-right-key');
    const key = 'sk-doctor-wrong-key-4821';
    const env = { ...s.env, RUNTIME_MODEL_BASE_URL: endpoint.url, RUNTIME_MODEL_API_KEY: key };
    const json = await doctor(env, s.repo.path);
    const text = await keel(['doctor', '-w', s.repo.path], env);

    expect(endpoint.sent).toEqual([`Bearer ${key}`, `Bearer ${key}`]);
    expect(json.check('model-endpoint')).toEqual({
      name: 'model-endpoint',
      status: 'fail',
      detail: `${endpoint.url} answered HTTP 401: it refused the key in RUNTIME_MODEL_API_KEY.`,
      fix: 'export RUNTIME_MODEL_API_KEY=<a key this endpoint accepts> (keys are read from the environment, never from files).',
    });
    expect(json.check('model').detail).toContain('the key in RUNTIME_MODEL_API_KEY');
    for (const output of [json.stdout, json.stderr, text.stdout, text.stderr])
      expect(output).not.toContain(key);
    expect(json.code).toBe(1);
    expect(text.code).toBe(1);

    // The same endpoint with the key it accepts: ok.
    const accepted = await doctor({ ...env, RUNTIME_MODEL_API_KEY: 'the-right-key' }, s.repo.path);
    expect(accepted.check('model-endpoint')).toMatchObject({ status: 'ok' });
    expect(accepted.stdout).not.toContain('the-right-key');
  });

  test('no model configured: the model check fails with how to choose one; the endpoint is still asked', async () => {
    await using s = await scenario([callsTheTool]);
    const { RUNTIME_MODEL: _unset, ...env } = s.env;
    const { code, check } = await doctor(env, s.repo.path);

    expect(check('model')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('No model configured: set RUNTIME_MODEL'),
      fix: expect.stringContaining('keel config setup --model <name>'),
    });
    expect(check('model-endpoint')).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining('it lists 1 model'),
    });
    expect(code).toBe(1);
  });

  test('an untrusted project config is a warning naming the keel trust that applies it', async () => {
    const elsewhere = await closedPortUrl();
    await using s = await scenario([callsTheTool], { config: { model_base_url: elsewhere } });
    const before = await doctor(s.env, s.repo.path);

    expect(before.check('project-config')).toEqual({
      name: 'project-config',
      status: 'warn',
      detail: `${join(s.repo.path, '.runtime', 'config.json')} is not trusted as it is now: model_base_url is ignored.`,
      fix: `Check what it asks for (keel config show), then apply it with: keel trust ${s.repo.path}`,
    });
    // Ignored, the file's endpoint is not the one asked: the environment's is.
    expect(before.check('model-endpoint').status).toBe('ok');

    expect((await keel(['trust', s.repo.path], s.env)).code).toBe(0);
    const after = await doctor(s.env, s.repo.path);
    expect(after.check('project-config')).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining('trusted as it is now'),
    });
    // Trusted, its endpoint applies, and nothing listens there.
    expect(after.check('model-endpoint')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining(`Could not reach ${elsewhere}`),
    });
  });

  test('no bubblewrap on PATH fails the sandbox check with what to install or set; exit 1', async () => {
    await using bin = await createTempDir();
    await using s = await scenario([callsTheTool]);
    const env = { ...s.env, PATH: await pathWithout(['bwrap'], bin.path) };
    const { code, check } = await doctor(env, s.repo.path);

    expect(check('sandbox')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('No sandbox: bwrap is not installed'),
      fix: 'Install bubblewrap (apt-get install bubblewrap), or run commands unconfined on purpose: keel config set sandbox.enabled false.',
    });
    expect(code).toBe(1);

    // Turned off on purpose: a warning, and nothing else fails.
    await writeFile(join(s.home, 'config.json'), '{"sandbox":{"enabled":false}}');
    const off = await doctor(env, s.repo.path);
    expect(off.check('sandbox')).toMatchObject({
      status: 'warn',
      detail: 'sandbox.enabled is false: commands run unconfined.',
    });
    expect(off.code).toBe(0);
  });
});

type Profile = NonNullable<MockModelOptions['profile']>;

/** `keel doctor --json` against a scripted model server speaking a profile's dialect, with `model` configured. */
async function doctorAgainst(
  profile: Profile,
  options: {
    models: string[];
    model: string;
    script?: ScriptedReply[];
    baseUrl?: (url: string, root: string) => string;
  },
) {
  await using s = await scenario([]);
  await using server = await startMockModel({
    profile,
    models: options.models,
    script: options.script ?? [callsTheTool],
  });
  const env = {
    ...s.env,
    RUNTIME_MODEL: options.model,
    RUNTIME_MODEL_BASE_URL: options.baseUrl?.(server.url, server.baseUrl) ?? server.url,
  };
  await writeFile(join(s.home, 'config.json'), '{"sandbox":{"enabled":false}}');
  const json = await doctor(env, s.repo.path);
  const text = await keel(['doctor', '-w', s.repo.path], env);
  return { ...json, text: text.stdout, url: server.url, chatRequests: server.chatRequests };
}

describe('keel doctor against each model server', () => {
  // Each profile's server lists its models as it does (testkit's discovery-routes.ts), and writes the tool
  // call as it does (profiles.ts): vLLM without a parser as <tool_call> text, llama.cpp with an empty id.
  const servers: Array<{ profile: Profile; model: string; server: string; models: Check['models'] }> = [
    {
      profile: 'ollama',
      model: 'qwen2.5-coder:7b',
      server: 'ollama',
      models: [
        { id: 'qwen2.5-coder:7b', context_length: 131072, tools: true },
        { id: 'gemma3:1b', context_length: 32768, tools: false },
      ],
    },
    {
      profile: 'vllm-hermes',
      model: 'Qwen/Qwen3-8B',
      server: 'vllm',
      models: [{ id: 'Qwen/Qwen3-8B', context_length: 32768 }],
    },
    {
      profile: 'llamacpp',
      model: 'qwen3-8b.gguf',
      server: 'llamacpp',
      models: [{ id: 'qwen3-8b.gguf', context_length: 8192 }],
    },
    {
      profile: 'lmstudio',
      model: 'qwen/qwen3-8b',
      server: 'lmstudio',
      models: [{ id: 'qwen/qwen3-8b', context_length: 65536 }],
    },
    { profile: 'openai-reasoning', model: 'o4-mini', server: 'other', models: [{ id: 'o4-mini' }] },
  ];

  test.each(servers)(
    '$profile: its models with their context length, and tool calling works',
    async (row) => {
      const ids = (row.models ?? []).map((model) => model.id);
      const { check, code, text } = await doctorAgainst(row.profile, { models: ids, model: row.model });

      const window = row.models?.[0]?.context_length;
      expect(check('model-endpoint')).toMatchObject({
        status: 'ok',
        detail: expect.stringContaining(
          `it lists ${row.model}${window ? ` (context ${window} tokens)` : ''}`,
        ),
        models: row.models,
        ...(row.server === 'other' ? {} : { server: row.server }),
      });
      expect(check('tool-calling')).toMatchObject({
        status: 'ok',
        detail: expect.stringContaining(`${row.model} called the tool it was offered: tool calling works`),
      });
      if (window) expect(text).toContain(`· ${row.model}  context ${window} tokens`);
      expect(code).toBe(0);
    },
  );

  test("Ollama, a model without tools: tool calling fails in the server's words, naming a model that can", async () => {
    const { check, code, text } = await doctorAgainst('ollama', {
      models: ['gemma3:1b', 'qwen2.5-coder:7b'],
      model: 'gemma3:1b',
    });
    expect(check('tool-calling')).toEqual({
      name: 'tool-calling',
      status: 'fail',
      detail:
        "gemma3:1b cannot call tools on this server, and Keel's agent needs them: it answered " +
        '"registry.ollama.ai/library/gemma3:1b does not support tools".',
      fix:
        'Choose one that can (this server lists qwen2.5-coder:7b): keel config set model <name> (RUNTIME_MODEL, ' +
        '--model). With Ollama, `ollama show <model>` lists "tools" under Capabilities.',
    });
    expect(text).toMatch(/^ {24}· gemma3:1b {9}context 32768 tokens, no tools$/m);
    expect(text).toMatch(/^ {24}· qwen2\.5-coder:7b {2}context 131072 tokens, tools$/m);
    expect(code).toBe(1);
  });

  test('vLLM, a model that answers in text: a warning naming the tool parser flags', async () => {
    const { check, code } = await doctorAgainst('vllm-hermes', {
      models: ['Qwen/Qwen3-8B'],
      model: 'Qwen/Qwen3-8B',
      script: [{ text: 'Status: ready.' }],
    });
    expect(check('tool-calling')).toMatchObject({
      status: 'warn',
      detail: 'Qwen/Qwen3-8B answered in text instead of calling the tool it was offered: "Status: ready.".',
      fix: expect.stringContaining('Start vLLM with --enable-auto-tool-choice --tool-call-parser <parser>'),
    });
    expect(code).toBe(0);
  });

  test("Ollama's own address, without /v1: the endpoint check names the address to use", async () => {
    const { check } = await doctorAgainst('ollama', {
      models: ['qwen2.5-coder:7b'],
      model: 'qwen2.5-coder:7b',
      baseUrl: (_url, root) => root,
    });
    const endpoint = check('model-endpoint');
    expect(endpoint).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('is reachable but answered HTTP 404 to GET /models'),
    });
    expect(endpoint.fix).toMatch(
      /^This is Ollama's own address: its OpenAI-compatible API is at http:\/\/127\.0\.0\.1:\d+\/v1 /,
    );
  });
});
