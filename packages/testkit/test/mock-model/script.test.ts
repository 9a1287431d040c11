import { afterEach, describe, expect, it } from 'vitest';
import type { MockModel } from '../../src/index.ts';
import { isTestkitError, parseScriptFile, startMockModel } from '../../src/index.ts';
import { postChat, readJson, userMessage } from '../helpers.ts';

const contentOf = async (response: Response): Promise<string | null> =>
  (await readJson(response)).choices[0].message.content;

describe('script selection, validation and recording', () => {
  let server: MockModel;
  afterEach(() => server?.close());

  it('takes the first unconsumed reply whose matcher accepts the last message', async () => {
    server = await startMockModel({
      script: [
        { when: { lastRole: 'tool' }, text: 'after the tool' },
        { when: { lastMessageIncludes: 'title' }, text: 'A short title' },
        { text: 'anything' },
      ],
    });
    expect(
      await contentOf(await postChat(server, { messages: [userMessage('Write a title for this')] })),
    ).toBe('A short title');
    expect(await contentOf(await postChat(server, { messages: [userMessage('hello')] }))).toBe('anything');
    const toolResult = { role: 'tool', tool_call_id: 'c1', content: 'done' };
    expect(await contentOf(await postChat(server, { messages: [userMessage('x'), toolResult] }))).toBe(
      'after the tool',
    );
    expect(server.remaining).toBe(0);
  });

  it('matches on the text parts of array content (text + image parts)', async () => {
    server = await startMockModel({
      script: [{ when: { lastMessageIncludes: 'this screenshot' }, text: 'A cat.' }],
    });
    const content = [
      { type: 'text', text: 'What is in ' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      { type: 'text', text: 'this screenshot?' },
    ];
    expect(await contentOf(await postChat(server, { messages: [userMessage(content)] }))).toBe('A cat.');
    const recorded = server.chatRequests[0]?.messages?.[0]?.content as Array<{ type: string }>;
    expect(recorded.map((part) => part.type)).toEqual(['text', 'image_url', 'text']);
  });

  it('push() appends replies and remaining counts what is left', async () => {
    server = await startMockModel({ script: [{ text: 'one' }] });
    server.push({ text: 'two' }, { text: 'three' });
    expect(server.remaining).toBe(3);
    expect(await contentOf(await postChat(server, {}))).toBe('one');
    expect(await contentOf(await postChat(server, {}))).toBe('two');
    expect(server.remaining).toBe(1);
  });

  it('a repeat reply answers every request it matches and is never consumed', async () => {
    const toolResult = (content: string) => ({ role: 'tool', tool_call_id: 'c1', content });
    server = await startMockModel({
      script: [
        { when: { lastRole: 'tool', lastMessageIncludes: 'first' }, text: 'after first', repeat: true },
        {
          when: { lastMessageIncludes: 'go' },
          toolCalls: [{ id: 'c1', name: 'x', arguments: {} }],
          repeat: true,
        },
        { text: 'once' },
      ],
    });
    const ask = async (messages: unknown[]) =>
      readJson(await postChat(server, { messages })).then((body) => body.choices[0].message);
    // The same question twice (a turn asked again) gets the same answer, whatever came in between.
    expect((await ask([userMessage('go')])).tool_calls[0].id).toBe('c1');
    expect((await ask([userMessage('go'), toolResult('first')])).content).toBe('after first');
    expect((await ask([userMessage('go')])).tool_calls[0].id).toBe('c1');
    expect((await ask([userMessage('go'), toolResult('first')])).content).toBe('after first');
    expect(server.remaining).toBe(3);
    // Replies without `repeat` are still consumed; the repeating ones stay.
    expect((await ask([userMessage('hello')])).content).toBe('once');
    expect(server.remaining).toBe(2);
    const exhausted = await postChat(server, { messages: [userMessage('hello')] });
    expect(exhausted.status).toBe(500);
    await expect(startMockModel({ script: [{ text: 'a', repeat: 'yes' }] as never })).rejects.toThrow(
      /repeat/,
    );
  });

  it('records every request: method, path, headers and body', async () => {
    server = await startMockModel({ script: [{ text: 'ok' }] });
    const tools = [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object' } } }];
    await postChat(server, {
      tools,
      messages: [{ role: 'system', content: 'Be brief.' }, userMessage('hi')],
    });
    await fetch(`${server.url}/models?x=1`);
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /v1/chat/completions',
      'GET /v1/models',
    ]);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer test-key');
    expect(server.chatRequests).toHaveLength(1);
    expect(server.chatRequests[0]).toMatchObject({ model: 'mock-model', tools });
    expect(server.chatRequests[0]?.messages?.map((message) => message.role)).toEqual(['system', 'user']);
  });

  it('waitForRequests resolves on arrival and times out with a clear error', async () => {
    server = await startMockModel({ script: [{ text: 'ok' }] });
    const waiting = server.waitForRequests(1);
    await postChat(server, {});
    expect(await waiting).toHaveLength(1);
    await expect(server.waitForRequests(2, { timeoutMs: 20 })).rejects.toThrow(
      'Expected 2 requests within 20 ms, got 1',
    );
  });

  it('rejects a bad script with a message naming the reply and field', async () => {
    const bad = [{ text: 'ok' }, { txet: 'typo' }] as never;
    const error = await startMockModel({ script: bad }).catch((caught: unknown) => caught);
    expect(isTestkitError(error)).toBe(true);
    expect((error as Error).message).toMatch(/Invalid mock model script/);
    expect((error as Error).message).toMatch(/txet/);
    expect((error as Error).message).toMatch(/\[1\]/);
    await expect(startMockModel({ script: [{ error: { status: 429 }, text: 'both' }] })).rejects.toThrow(
      /cannot be combined/,
    );
    await expect(startMockModel({ script: [{ delayMs: 5 }] })).rejects.toThrow(/needs text, reasoning/);
    await expect(startMockModel({ chunkSize: 0 })).rejects.toThrow(/Invalid startMockModel options/);
    server = await startMockModel();
    expect(() => server.push({ drop: 'sometimes' } as never)).toThrow(/reply passed to push/);
  });

  it('parses both script file shapes', () => {
    expect(parseScriptFile([{ text: 'a' }])).toEqual({ replies: [{ text: 'a' }] });
    expect(parseScriptFile({ replies: [{ text: 'a' }], models: ['m1'] })).toEqual({
      replies: [{ text: 'a' }],
      models: ['m1'],
    });
    expect(() => parseScriptFile({ reply: [] })).toThrow(/expected an array of replies/);
  });

  it('supports await using', async () => {
    let url = '';
    {
      await using scoped = await startMockModel();
      url = scoped.url;
      expect((await fetch(`${url}/models`)).status).toBe(200);
    }
    await expect(fetch(`${url}/models`)).rejects.toThrow();
  });
});
