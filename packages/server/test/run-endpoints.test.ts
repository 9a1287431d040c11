import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eventually } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { startServer } from './harness.ts';

/** The `data:` payloads of an SSE body, in order. */
function dataLines(text: string): Array<{ type: string; [key: string]: unknown }> {
  return text
    .split('\n\n')
    .map((block) => block.match(/^data: (.*)$/m)?.[1])
    .filter((data): data is string => data !== undefined)
    .map((data) => JSON.parse(data));
}

describe('POST /run, /run/stream and /tool', () => {
  test('POST /run answers the run result once the run ends; session_id continues the conversation', async () => {
    await using s = await startServer(
      [
        { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
        { when: { lastRole: 'tool' }, text: 'It says hello.' },
        { text: 'You asked about a.txt.' },
      ],
      { files: { 'a.txt': 'hello\n' } },
    );
    const first = await s.api('POST', '/run', { prompt: 'what is in a.txt?' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: 'success',
      output: 'It says hello.',
      session_id: expect.stringMatching(/^ses_/),
      usage: { total_tokens: expect.any(Number) },
      tool_traces: [{ tool_name: 'read_file', args: { path: 'a.txt' } }],
    });
    // The run went to the store like any other.
    expect((await s.api('GET', `/runtime/runs/${first.body.run_id}`)).body.status).toBe('succeeded');

    const second = await s.api('POST', '/run', {
      prompt: 'what did I ask?',
      session_id: first.body.session_id,
    });
    expect(second.body).toMatchObject({
      output: 'You asked about a.txt.',
      session_id: first.body.session_id,
    });
    const session = await s.api('GET', `/sessions/${first.body.session_id}`);
    expect(session.body.message_count).toBeGreaterThanOrEqual(4);
    expect(session.body.messages.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'You asked about a.txt.',
    });
  });

  test('POST /run/stream sends SSE data lines: session_start first, done last', async () => {
    await using s = await startServer([{ text: 'Streaming works.' }]);
    const response = await fetch(`${s.base}/run/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'stream please' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = dataLines(await response.text());
    expect(events[0]).toMatchObject({ type: 'session_start', session_id: expect.stringMatching(/^ses_/) });
    expect(events.at(-1)).toMatchObject({ type: 'done', output: 'Streaming works.' });
    expect(events.every((event) => event.session_id === events[0]?.session_id)).toBe(true);
    const text = events.filter((event) => event.type === 'text_delta').map((event) => event.content);
    expect(text.join('')).toBe('Streaming works.');
  });

  test('POST /run with "stream": true streams too', async () => {
    await using s = await startServer([{ text: 'Also streamed.' }]);
    const response = await fetch(`${s.base}/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'hi', stream: true }),
    });
    expect(dataLines(await response.text()).at(-1)).toMatchObject({ type: 'done', output: 'Also streamed.' });
  });

  test('a client leaving the stream cancels the run', async () => {
    await using s = await startServer([{ text: 'word '.repeat(300), chunkDelayMs: 20 }]);
    const controller = new AbortController();
    const response = await fetch(`${s.base}/run/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'talk' }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    const status = await eventually(
      async () => {
        const { status } = (await s.api('GET', '/runtime/runs')).body.runs[0] ?? {};
        return status === 'cancelled' && status;
      },
      { timeoutMs: 10_000, intervalMs: 50, what: 'the run to be cancelled' },
    );
    expect(status).toBe('cancelled');
  });

  test('bad run requests are JSON errors before any stream', async () => {
    await using s = await startServer([]);
    for (const path of ['/run', '/run/stream']) {
      const missing = await s.api('POST', path, { workdir: '.' });
      expect(missing).toMatchObject({ status: 400, body: { error: { code: 'INVALID_PARAMS' } } });
      expect(missing.body.error.message).toContain('prompt');
      const session = await s.api('POST', path, { prompt: 'hi', session_id: 'ses_nope' });
      expect(session).toMatchObject({ status: 404, body: { error: { code: 'SESSION_NOT_FOUND' } } });
      const both = await s.api('POST', path, {
        prompt: 'hi',
        include_tools: ['grep'],
        exclude_tools: ['glob'],
      });
      expect(both).toMatchObject({ status: 400, body: { error: { code: 'INVALID_PARAMS' } } });
      const notJson = await s.api('POST', path, '[1, 2');
      expect(notJson).toMatchObject({ status: 400, body: { error: { code: 'INVALID_PARAMS' } } });
    }
  });

  test('POST /tool runs one tool confined to the workdir', async () => {
    await using s = await startServer([], { files: { 'notes.txt': 'one\ntwo\n' } });
    const read = await s.api('POST', '/tool', { tool: 'read_file', params: { path: 'notes.txt' } });
    expect(read.status).toBe(200);
    expect(read.body.status).toBe('success');
    expect(read.body.result).toContain('one');
    const written = await s.api('POST', '/tool', {
      tool: 'write_file',
      params: { path: 'new.txt', content: 'fresh\n' },
      workdir: s.repo.path,
    });
    expect(written.status).toBe(200);
    expect(await readFile(join(s.repo.path, 'new.txt'), 'utf8')).toBe('fresh\n');

    const outside = await s.api('POST', '/tool', {
      tool: 'read_file',
      params: { path: '../../../etc/passwd' },
    });
    expect(outside).toMatchObject({ status: 403, body: { error: { code: 'PERMISSION_DENIED' } } });
    const unknown = await s.api('POST', '/tool', { tool: 'teleport', params: {} });
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'TOOL_NOT_FOUND' } } });
    const badParams = await s.api('POST', '/tool', { tool: 'read_file', params: { path: 42 } });
    expect(badParams).toMatchObject({ status: 400, body: { error: { code: 'INVALID_PARAMS' } } });
    const noTool = await s.api('POST', '/tool', { params: {} });
    expect(noTool).toMatchObject({ status: 400, body: { error: { code: 'INVALID_PARAMS' } } });
  });
});

describe('sessions', () => {
  test('create, list, show and delete', async () => {
    await using s = await startServer([]);
    const created = await s.api('POST', '/sessions?title=Refactor&model=gpt-4.1');
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      title: 'Refactor',
      model: 'gpt-4.1',
      workdir: '',
      message_count: 0,
    });
    expect(created.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?$/);
    const untitled = await s.api('POST', '/sessions');
    expect(untitled.body.title).toBe('New session');

    const list = await s.api('GET', '/sessions?limit=1');
    expect(list.body.sessions).toHaveLength(1);
    expect((await s.api('GET', '/sessions')).body.sessions).toHaveLength(2);
    const detail = await s.api('GET', `/sessions/${created.body.id}`);
    expect(detail.body).toMatchObject({ id: created.body.id, messages: [] });

    const deleted = await s.api('DELETE', `/sessions/${created.body.id}`);
    expect(deleted.body).toEqual({ status: 'deleted', id: created.body.id });
    const gone = await s.api('GET', `/sessions/${created.body.id}`);
    expect(gone).toMatchObject({ status: 404, body: { error: { code: 'SESSION_NOT_FOUND' } } });
    expect((await s.api('DELETE', `/sessions/${created.body.id}`)).status).toBe(404);
    expect((await s.api('GET', '/sessions?limit=zero')).status).toBe(400);
  });
});
