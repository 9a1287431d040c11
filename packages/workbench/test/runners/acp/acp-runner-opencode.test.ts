// long-running: opencode over ACP, a large third-party program
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createTempDir, createTempGitRepo, type ScriptedReply, startMockModel } from '@keel/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { AcpRunner } from '../../../src/runners/acp/index.ts';
import type { RunnerEvent, RunnerRequest } from '../../../src/runners/index.ts';
import { installOpencode, opencodeDir, opencodeHome, opencodeVersion } from './opencode-setup.ts';

const apiKey = 'sk-opencode-acp-secret-4242';
const everything = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

/** The real `opencode acp` (found in agentsDir, not on PATH) on the scripted model, in a temp git workspace. */
async function startOpencode(script: ScriptedReply[]) {
  const model = await startMockModel({ script });
  const titles = await startMockModel({ script: Array.from({ length: 4 }, () => ({ text: 'A title' })) });
  const { home, env } = await opencodeHome(model, titles, apiKey);
  const repo = await createTempGitRepo({ files: { 'README.md': '# demo\n' } });
  const runner = new AcpRunner({ env: { PATH: process.env.PATH ?? '', ...env }, agentsDir: opencodeDir });
  return {
    model,
    repo,
    runner,
    async run(extra: Partial<RunnerRequest> = {}) {
      const events: RunnerEvent[] = [];
      const outcome = await runner.run(
        {
          prompt: 'Do the task',
          workdir: repo.path,
          model: { model: 'mock-model', baseUrl: model.url, apiKey },
          mcpServers: [],
          skillDirs: [],
          config: { id: 'acp', name: 'ACP agent', kind: 'acp', extra_args: [], env: {} },
          signal: new AbortController().signal,
          ...extra,
        },
        async (event) => {
          events.push(event);
        },
      );
      return { events, outcome };
    },
    async [Symbol.asyncDispose]() {
      await model.close();
      await titles.close();
      await repo.remove();
      await home.remove();
    },
  };
}

describe('AcpRunner against the real opencode acp', () => {
  beforeAll(async () => {
    const { installMs } = await installOpencode();
    console.info(`opencode-ai@${opencodeVersion} ready in ${installMs} ms (${opencodeDir})`);
  }, 300_000);

  it('check finds opencode in agentsDir and reports its version', async () => {
    const runner = new AcpRunner({ env: { PATH: '/usr/bin:/bin' }, agentsDir: opencodeDir });
    const availability = await runner.check({ id: 'acp', name: 'ACP', kind: 'acp', extra_args: [], env: {} });
    expect(availability).toEqual({ kind: 'acp', usable: true, version: opencodeVersion });
  });

  it('edits a file through a permitted tool call and reports it', async () => {
    await using h = await startOpencode([]);
    const file = join(h.repo.path, 'hello.txt');
    h.model.push(
      {
        toolCalls: [
          { id: 'call_write', name: 'write', arguments: { filePath: file, content: 'hi from opencode\n' } },
        ],
      },
      { when: { lastRole: 'tool' }, text: 'Wrote hello.txt.' },
    );
    const { events, outcome } = await h.run({ prompt: 'Create hello.txt', instructions: 'Keep it short.' });
    expect(outcome.status, JSON.stringify(outcome.error)).toBe('succeeded');
    expect(outcome.runnerSessionId).toMatch(/^ses_/);
    expect(outcome.output).toBe('Wrote hello.txt.');
    expect(await readFile(file, 'utf8')).toBe('hi from opencode\n');
    expect(events[0]).toEqual({
      type: 'runner_started',
      runner: 'acp',
      runner_session_id: outcome.runnerSessionId,
    });
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'tool_call',
        tool_call_id: 'call_write',
        tool_name: 'write',
        kind: 'file_edit',
        path: 'hello.txt',
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'tool_result',
        tool_call_id: 'call_write',
        kind: 'file_edit',
        ok: true,
      }),
    );
    expect(
      events
        .filter((event) => event.type === 'text_delta')
        .map((event) => event.content)
        .join(''),
    ).toBe('Wrote hello.txt.');
    // The instructions reached the model in their tagged section.
    expect(JSON.stringify(h.model.chatRequests[0]?.messages)).toContain('<instructions>\\nKeep it short.');
    expect(JSON.stringify(events)).not.toContain(apiKey);
  }, 120_000);

  it("gives the agent the request's MCP server and reports its tool call as mcp", async () => {
    await using h = await startOpencode([
      { toolCalls: [{ id: 'call_echo', name: 'everything_echo', arguments: { message: 'ping-42' } }] },
      { when: { lastRole: 'tool' }, text: 'The server echoed.' },
    ]);
    const mcpServers = [
      { name: 'everything', command: process.execPath, args: [everything, 'stdio'], env: {}, enabled: true },
      { name: 'disabled', command: '/nonexistent', args: [], env: {}, enabled: false },
    ];
    const { events, outcome } = await h.run({ prompt: 'Echo ping-42', mcpServers });
    expect(outcome.status, JSON.stringify(outcome.error)).toBe('succeeded');
    const tools = (h.model.chatRequests[0]?.tools ?? []) as Array<{ function: { name: string } }>;
    expect(tools.map((tool) => tool.function.name)).toContain('everything_echo');
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'tool_call',
        tool_call_id: 'call_echo',
        tool_name: 'everything_echo',
        kind: 'mcp',
        args: { message: 'ping-42' },
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'tool_result',
        tool_call_id: 'call_echo',
        kind: 'mcp',
        ok: true,
        result: 'Echo: ping-42',
      }),
    );
    expect(JSON.stringify(events)).not.toContain(apiKey);
  }, 120_000);

  it('resumes the session with session/load', async () => {
    await using h = await startOpencode([{ text: 'First answer.' }, { text: 'Second answer.' }]);
    const first = await h.run({ prompt: 'Remember the word apple' });
    expect(first.outcome.status, JSON.stringify(first.outcome.error)).toBe('succeeded');
    const second = await h.run({ prompt: 'Which word?', resumeSessionId: first.outcome.runnerSessionId });
    expect(second.outcome).toMatchObject({
      status: 'succeeded',
      runnerSessionId: first.outcome.runnerSessionId,
    });
    expect(second.outcome.output).toBe('Second answer.');
    // The loaded history is not replayed as this run's events, and the model saw the earlier turn.
    expect(JSON.stringify(second.events)).not.toContain('First answer.');
    expect(JSON.stringify(h.model.chatRequests.at(-1)?.messages)).toContain('Remember the word apple');
  }, 120_000);

  it('read-only: the edit is refused and the file is not written', async () => {
    await using h = await startOpencode([]);
    const file = join(h.repo.path, 'hello.txt');
    h.model.push(
      { toolCalls: [{ id: 'call_write', name: 'write', arguments: { filePath: file, content: 'no\n' } }] },
      { when: { lastRole: 'tool' }, text: 'Could not write.' },
    );
    const { events, outcome } = await h.run({ prompt: 'Create hello.txt', readOnly: true });
    expect(outcome.status, JSON.stringify(outcome.error)).toBe('succeeded');
    await expect(readFile(file, 'utf8')).rejects.toThrow(/ENOENT/);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'tool_result',
        tool_call_id: 'call_write',
        ok: false,
        // The workbench's own reason, on the call itself.
        result: expect.stringMatching(/^Refused .*hello\.txt.*read-only/),
      }),
    );
  }, 120_000);

  it("opencode's bash is refused unless the runner config says KEEL_ACP_COMMANDS=allow", async () => {
    await using h = await startOpencode([]);
    const marker = join(h.repo.path, 'ran.txt');
    const bash = (id: string) => ({
      toolCalls: [
        { id, name: 'bash', arguments: { command: `touch ${marker}`, description: 'Touch a file' } },
      ],
    });
    h.model.push(bash('call_refused'), { when: { lastRole: 'tool' }, text: 'Could not run it.' });
    const refused = await h.run({ prompt: 'Touch the file' });
    expect(refused.outcome.status, JSON.stringify(refused.outcome.error)).toBe('succeeded');
    await expect(readFile(marker, 'utf8')).rejects.toThrow(/ENOENT/);
    expect(refused.events).toContainEqual(
      expect.objectContaining({
        type: 'tool_result',
        tool_call_id: 'call_refused',
        kind: 'command',
        ok: false,
        result: expect.stringMatching(/^Refused to run the command `touch .*KEEL_ACP_COMMANDS=allow/),
      }),
    );
    h.model.push(bash('call_allowed'), { when: { lastRole: 'tool' }, text: 'Touched.' });
    const config = {
      id: 'acp',
      name: 'ACP agent',
      kind: 'acp' as const,
      extra_args: [],
      env: { KEEL_ACP_COMMANDS: 'allow' },
    };
    const allowed = await h.run({ prompt: 'Touch the file', config });
    expect(allowed.outcome.status, JSON.stringify(allowed.outcome.error)).toBe('succeeded');
    expect(await readFile(marker, 'utf8')).toBe('');
  }, 120_000);

  it('a write outside the workspace is refused', async () => {
    await using h = await startOpencode([]);
    await using outside = await createTempDir();
    const file = join(outside.path, 'escape.txt');
    h.model.push(
      { toolCalls: [{ id: 'call_write', name: 'write', arguments: { filePath: file, content: 'out\n' } }] },
      { when: { lastRole: 'tool' }, text: 'Could not write.' },
    );
    const { events, outcome } = await h.run({ prompt: 'Write outside' });
    expect(outcome.status, JSON.stringify(outcome.error)).toBe('succeeded');
    await expect(readFile(file, 'utf8')).rejects.toThrow(/ENOENT/);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'tool_result', tool_call_id: 'call_write', ok: false }),
    );
  }, 120_000);

  it('abort sends session/cancel and the outcome is cancelled', async () => {
    await using h = await startOpencode([{ text: 'Too late.', delayMs: 60_000 }]);
    const controller = new AbortController();
    const running = h.run({ prompt: 'Take your time', signal: controller.signal });
    await h.model.waitForRequests(1, { timeoutMs: 60_000 });
    const aborted = Date.now();
    controller.abort();
    const { outcome } = await running;
    expect(outcome.status).toBe('cancelled');
    expect(outcome.runnerSessionId).toMatch(/^ses_/);
    expect(Date.now() - aborted).toBeLessThan(15_000);
  }, 120_000);
});
