import { afterEach, describe, expect, it } from 'vitest';
import type { MockModel } from '../../src/index.ts';
import { startMockModel } from '../../src/index.ts';
import { postChat, readJson, userMessage } from '../helpers.ts';

describe('scripted failures', () => {
  let server: MockModel;
  afterEach(() => server.close());

  it('answers 429 with a Retry-After header and an OpenAI error body', async () => {
    server = await startMockModel({
      script: [{ error: { status: 429, retryAfterSeconds: 2 } }, { text: 'ok' }],
    });
    const response = await postChat(server, { stream: true });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('2');
    const body = await readJson(response);
    expect(body.error).toMatchObject({ type: 'requests', code: 'rate_limit_exceeded' });
    expect(body.error.message).toEqual(expect.any(String));
    expect((await postChat(server, {})).status).toBe(200);
  });

  it('answers other statuses with the scripted message', async () => {
    server = await startMockModel({ script: [{ error: { status: 401, message: 'Bad key' } }] });
    const response = await postChat(server, {});
    expect(response.status).toBe(401);
    expect(response.headers.get('retry-after')).toBeNull();
    expect((await readJson(response)).error).toMatchObject({ message: 'Bad key', code: 'invalid_api_key' });
  });

  it('drops the connection before the response: fetch rejects', async () => {
    server = await startMockModel({ script: [{ drop: 'before-response' }, { text: 'after the drop' }] });
    await expect(postChat(server, { stream: true })).rejects.toThrow();
    const response = await postChat(server, {});
    expect((await readJson(response)).choices[0].message.content).toBe('after the drop');
  });

  it('drops the connection mid-stream: reading the stream rejects after some chunks', async () => {
    server = await startMockModel({
      script: [{ text: 'This reply is cut off halfway through.', drop: 'mid-stream' }],
    });
    const response = await postChat(server, { stream: true });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let received = '';
    const readAll = async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        received += decoder.decode(value, { stream: true });
      }
    };
    await expect(readAll()).rejects.toThrow();
    expect(received).toContain('chat.completion.chunk');
    expect(received).not.toContain('[DONE]');
  });

  it('drops a non-streamed response midway: reading the body rejects', async () => {
    server = await startMockModel({ script: [{ text: 'half a body', drop: 'mid-stream' }] });
    const response = await postChat(server, {});
    await expect(response.text()).rejects.toThrow();
  });

  it('aborts a delayed reply cleanly when the client disconnects', async () => {
    server = await startMockModel({ script: [{ delayMs: 60_000, text: 'too late' }, { text: 'next' }] });
    const controller = new AbortController();
    const pending = postChat(server, {}, controller.signal);
    await server.waitForRequests(1);
    controller.abort();
    await expect(pending).rejects.toThrow(/abort/i);
    expect(server.remaining).toBe(1);
    expect((await readJson(await postChat(server, {}))).choices[0].message.content).toBe('next');
  });

  it('waits delayMs and chunkDelayMs before answering', async () => {
    server = await startMockModel({ script: [{ delayMs: 50, chunkDelayMs: 5, text: 'slow text here' }] });
    const started = performance.now();
    const text = await (await postChat(server, { stream: true })).text();
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(text).toContain('[DONE]');
  });

  it('close() does not hang on an open stream or keep-alive connection', async () => {
    server = await startMockModel({
      script: [{ text: 'x' }, { text: 'a slow stream', chunkDelayMs: 60_000 }],
    });
    await readJson(await postChat(server, {})); // leaves a keep-alive connection open
    const response = await postChat(server, { stream: true });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('"role":"assistant"');
    await server.close();
    await expect(reader.read()).rejects.toThrow(/terminated/);
  });

  it('explains an exhausted script with a 500 showing the last message', async () => {
    server = await startMockModel({
      script: [{ when: { lastMessageIncludes: 'deploy' }, text: 'never used' }],
    });
    const response = await postChat(server, {
      messages: [userMessage('first'), { role: 'tool', tool_call_id: 'c1', content: 'file contents' }],
    });
    expect(response.status).toBe(500);
    const body = await readJson(response);
    expect(body.error.code).toBe('script_exhausted');
    expect(body.error.message).toBe(
      'Mock model script exhausted (none of the 1 remaining replies matches). Last message: (tool) "file contents"',
    );
  });

  it('says so when no replies are left at all', async () => {
    server = await startMockModel({ script: [{ text: 'only one' }] });
    expect((await postChat(server, {})).status).toBe(200);
    const body = await readJson(await postChat(server, { messages: [userMessage('again?')] }));
    expect(body.error.message).toBe(
      'Mock model script exhausted (no replies left). Last message: (user) "again?"',
    );
  });
});
