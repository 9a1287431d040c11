import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTempDir, createTempGitRepo } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { CliRunner, cursorAdapter } from '../../../src/runners/cli/index.ts';
import type { RunnerRequest } from '../../../src/runners/index.ts';
import { writeFakeAgent } from './fake-agent.ts';
import { bareEnv, collect, configOf, secretKey, shapeOf } from './harness.ts';

// Cursor's agent talks only to Cursor's service and cannot be pointed at a local model: a fake
// `cursor-agent` prints its documented stream-json (system init, assistant, tool_call started/completed
// with readToolCall / editToolCall / shellToolCall, result) and records how it was started.
const fakeBody = (workdir: string, record: string) => `
fs.writeFileSync(${JSON.stringify(record)}, JSON.stringify({ argv: process.argv.slice(2), env: process.env, cwd: process.cwd() }));
const session_id = process.argv.includes('--resume') ? process.argv[process.argv.indexOf('--resume') + 1] : 'c6b62c6f-7ead-4fd6-9922-e952131177ff';
const file = ${JSON.stringify(join(workdir, 'a.txt'))};
emit({ type: 'system', subtype: 'init', apiKeySource: 'env', cwd: process.cwd(), session_id, model: 'Claude 4 Sonnet', permissionMode: 'default' });
emit({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'Change it' }] }, session_id });
emit({ type: 'thinking', subtype: 'delta', text: 'Read it ', session_id });
emit({ type: 'thinking', subtype: 'delta', text: 'first.', session_id });
emit({ type: 'thinking', subtype: 'completed', session_id });
emit({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Reading a.txt.' }] }, session_id });
emit({ type: 'tool_call', subtype: 'started', call_id: 'call-1', tool_call: { readToolCall: { args: { path: file } } }, session_id });
emit({ type: 'tool_call', subtype: 'completed', call_id: 'call-1', tool_call: { readToolCall: { args: { path: file }, result: { success: { content: 'hi\\n', isEmpty: false, totalLines: 1 } } } }, session_id });
fs.writeFileSync(file, 'hello cursor\\n');
emit({ type: 'tool_call', subtype: 'started', call_id: 'call-2', tool_call: { editToolCall: { args: { path: file, streamContent: 'hello cursor' } } }, session_id });
emit({ type: 'tool_call', subtype: 'completed', call_id: 'call-2', tool_call: { editToolCall: { args: { path: file }, result: { success: { path: file, linesAdded: 1, linesRemoved: 1 } } } }, session_id });
emit({ type: 'tool_call', subtype: 'started', call_id: 'call-3', tool_call: { shellToolCall: { args: { command: 'npm test' } } }, session_id });
emit({ type: 'tool_call', subtype: 'completed', call_id: 'call-3', tool_call: { shellToolCall: { args: { command: 'npm test' }, result: { error: { message: 'exit code 1' } } } }, session_id });
emit({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Changed the greeting.' }] }, session_id });
emit({ type: 'result', subtype: 'success', duration_ms: 1200, is_error: false, result: 'Reading a.txt.Changed the greeting.', session_id, request_id: 'r-1' });
`;

describe('the Cursor runner (fake cursor-agent printing its documented stream-json)', () => {
  test('normalises a run, starts the agent as documented, and resumes by session id', async () => {
    await using dir = await createTempDir();
    await using repo = await createTempGitRepo({ files: { 'a.txt': 'hi\n' } });
    const record = join(dir.path, 'record.json');
    const binary = await writeFakeAgent(dir.path, 'cursor-agent', fakeBody(repo.path, record));
    const runner = new CliRunner(cursorAdapter, {
      env: bareEnv({ HOME: '/nonexistent-real-home' }),
      homesDir: dir.path,
    });
    const request: RunnerRequest = {
      prompt: 'Change the greeting',
      instructions: 'Keep it short.',
      workdir: repo.path,
      model: { model: 'gpt-4o', baseUrl: 'http://127.0.0.1:1/v1', apiKey: secretKey },
      mcpServers: [{ name: 'docs', command: 'docs-server', args: ['--stdio'], env: {}, enabled: true }],
      skillDirs: [],
      config: configOf('cursor', {
        binary_path: binary,
        model: 'sonnet-4',
        extra_args: ['--extra'],
        env: { CURSOR_API_KEY: 'cursor-key' },
      }),
      signal: new AbortController().signal,
    };
    const { events, outcome } = await collect(runner, request);

    expect(outcome).toMatchObject({
      status: 'succeeded',
      output: 'Reading a.txt.Changed the greeting.',
      runnerSessionId: 'c6b62c6f-7ead-4fd6-9922-e952131177ff',
    });
    expect(shapeOf(events)).toEqual([
      'runner_started',
      'message assistant',
      'tool_call read file_read a.txt',
      'tool_result read file_read true',
      'tool_call edit file_edit a.txt',
      'tool_result edit file_edit true',
      'tool_call shell command -',
      'tool_result shell command false',
      'message assistant',
    ]);
    expect(events).toContainEqual({ type: 'thinking', content: 'Read it first.' });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'tool_result', tool_name: 'read', result: 'hi\n' }),
    );
    expect(await readFile(join(repo.path, 'a.txt'), 'utf8')).toBe('hello cursor\n');

    const started = JSON.parse(await readFile(record, 'utf8')) as {
      argv: string[];
      env: NodeJS.ProcessEnv;
      cwd: string;
    };
    expect(started.argv).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--model',
      'sonnet-4',
      '--force',
      '--approve-mcps',
      '--extra',
      '--',
      '<instructions>\nKeep it short.\n</instructions>\n\n<request>\nChange the greeting\n</request>',
    ]);
    expect(started.cwd).toBe(repo.path);
    // A private HOME with the MCP servers; Cursor's own key from the config; the workbench's key nowhere.
    expect(started.env.HOME).not.toBe('/nonexistent-real-home');
    expect(JSON.parse(await readFile(join(started.env.HOME!, '.cursor', 'mcp.json'), 'utf8'))).toEqual({
      mcpServers: { docs: { command: 'docs-server', args: ['--stdio'], env: {} } },
    });
    expect(started.env.CURSOR_API_KEY).toBe('cursor-key');
    expect(JSON.stringify(started.env)).not.toContain(secretKey);

    const resumed = await collect(runner, {
      ...request,
      readOnly: true,
      resumeSessionId: 'c6b62c6f-7ead-4fd6-9922-e952131177ff',
    });
    expect(resumed.outcome.status).toBe('succeeded');
    const again = JSON.parse(await readFile(record, 'utf8')) as { argv: string[]; env: NodeJS.ProcessEnv };
    expect(again.argv).toContain('--resume');
    expect(again.argv.slice(again.argv.indexOf('--resume'), again.argv.indexOf('--resume') + 4)).toEqual([
      '--resume',
      'c6b62c6f-7ead-4fd6-9922-e952131177ff',
      '--mode',
      'ask',
    ]);
    // The resumed run gets the first run's home back.
    expect(again.env.HOME).toBe(started.env.HOME);
  });
});
