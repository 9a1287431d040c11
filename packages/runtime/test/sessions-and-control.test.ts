import { describe, expect, test } from 'vitest';
import { KeelError, type RuntimeEvent } from '../src/index.ts';
import { startHarness } from './harness.ts';

const pixel = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489',
  'hex',
).toString('base64');

describe('sessions', () => {
  test('a second run with session_id continues the conversation', async () => {
    await using h = await startHarness([{ text: 'Nice to meet you, Ada.' }, { text: 'Your name is Ada.' }]);
    const first = await h.collect({ prompt: 'My name is Ada.' });
    const sessionId = first.result!.session_id;
    const second = await h.collect({ prompt: 'What is my name?', session_id: sessionId });
    expect(second.result?.session_id).toBe(sessionId);
    const sent = h.model.chatRequests[1]!.messages!.map((m) => m.role);
    expect(sent).toEqual(['system', 'user', 'assistant', 'user']);

    const detail = h.runtime.sessions.detail(sessionId);
    expect(detail).toMatchObject({
      id: sessionId,
      title: 'My name is Ada.',
      model: 'mock-model',
      message_count: 4,
    });
    expect(detail.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'My name is Ada.'],
      ['assistant', 'Nice to meet you, Ada.'],
      ['user', 'What is my name?'],
      ['assistant', 'Your name is Ada.'],
    ]);
    expect(detail.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/);
    expect(h.runtime.sessions.list().map((s) => s.id)).toEqual([sessionId]);
  });

  test("list: most recent first, one folder's sessions, paged by offset", async () => {
    await using h = await startHarness([]);
    const made = ['/a', '/b', '/a', '/a'].map((workdir) => h.runtime.sessions.create({ workdir }));
    const ids = (list: { id: string }[]) => list.map((session) => session.id);
    const inA = made.filter((session) => session.workdir === '/a').reverse();
    expect(ids(h.runtime.sessions.list(20, { workdir: '/a' }))).toEqual(ids(inA));
    expect(ids(h.runtime.sessions.list(2, { workdir: '/a', offset: 2 }))).toEqual(ids(inA.slice(2)));
    expect(h.runtime.sessions.list(20, { workdir: '/c' })).toEqual([]);
    expect(h.runtime.sessions.list()).toHaveLength(4);
  });

  test('an unknown session id is SESSION_NOT_FOUND before any event', async () => {
    await using h = await startHarness([{ text: 'unused' }]);
    const { error, events } = await h.collect({ prompt: 'hi', session_id: 'ses_missing' });
    expect(events).toEqual([]);
    expect(KeelError.is(error) && error.code).toBe('SESSION_NOT_FOUND');
    expect(h.model.chatRequests).toHaveLength(0);
    expect(() => h.runtime.sessions.delete('ses_missing')).toThrow(/does not exist/);
  });

  test('images go to the model as image_url parts and are kept in the session', async () => {
    await using h = await startHarness([{ text: 'A one-pixel image.' }]);
    const { result } = await h.collect({
      prompt: 'What is in this image?',
      images: [{ data: pixel, media_type: 'image/png', filename: 'dot.png' }],
    });
    const user = h.model.chatRequests[0]!.messages!.at(-1)!;
    expect(user.content).toEqual([
      { type: 'text', text: 'What is in this image?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${pixel}` } },
    ]);
    const detail = h.runtime.sessions.detail(result!.session_id);
    expect(detail.messages[0]!.images).toEqual([
      { data: pixel, media_type: 'image/png', filename: 'dot.png' },
    ]);
    expect(detail.messages[1]!.images).toBeNull();
  });
});

describe('request validation', () => {
  test.each([
    [{ prompt: '' }, 'prompt'],
    [{ prompt: 'x', include_tools: ['grep'], exclude_tools: ['glob'] }, 'mutually exclusive'],
    [{ prompt: 'x', include_tools: ['no_such_tool'] }, 'no_such_tool'],
    [{ prompt: 'x', images: [{ data: 'not base64!', media_type: 'image/png' }] }, 'base64'],
    [{ prompt: 'x', workdir: '/definitely/not/here' }, 'does not exist'],
    [{ prompt: 'x', max_steps: -1 }, 'max_steps'],
    [{ prompt: 'x', allowed_roots: ['/no/such/root'] }, 'allowed root does not exist'],
    [{ prompt: 'x', unknown_field: 1 }, 'unknown_field'],
  ])('%j is INVALID_PARAMS mentioning %s', async (request, mention) => {
    await using h = await startHarness([]);
    const { error, events } = await h.collect(request as { prompt: string });
    expect(events).toEqual([]);
    expect(KeelError.is(error) && error.code).toBe('INVALID_PARAMS');
    expect((error as Error).message).toContain(mention);
  });

  test('include_tools limits what the model is offered', async () => {
    await using h = await startHarness([{ text: 'ok' }]);
    await h.collect({ prompt: 'x', include_tools: ['read_file', 'grep'] });
    expect(h.model.chatRequests[0]!.tools?.map((t) => t.function?.name)).toEqual(['read_file', 'grep']);
  });
});

describe('cancellation', () => {
  test('aborting mid-stream stops the model stream and emits `cancelled` last', async () => {
    await using h = await startHarness([{ text: 'word '.repeat(200), chunkDelayMs: 50 }]);
    const controller = new AbortController();
    const events: RuntimeEvent[] = [];
    const started = Date.now();
    const run = h.runtime.run(
      { prompt: 'talk a lot', workdir: h.workdir },
      {
        signal: controller.signal,
        onEvent: (event) => {
          events.push(event);
          if (event.type === 'text_delta') controller.abort();
        },
      },
    );
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(events.at(-1)?.type).toBe('cancelled');
    expect(events.filter((e) => e.type === 'text_delta').length).toBeLessThan(10);
  });

  test('leaving a stream early cancels the run', async () => {
    await using h = await startHarness([{ text: 'word '.repeat(200), chunkDelayMs: 50 }]);
    const seen: string[] = [];
    for await (const event of h.runtime.stream({ prompt: 'talk', workdir: h.workdir })) {
      seen.push(event.type);
      if (event.type === 'text_delta') break;
    }
    expect(seen).toEqual(['session_start', 'text_delta']);
  });

  test('stream() yields session_start first and done last', async () => {
    await using h = await startHarness([{ text: 'hello' }]);
    const types: string[] = [];
    for await (const event of h.runtime.stream({ prompt: 'hi', workdir: h.workdir })) types.push(event.type);
    expect(types[0]).toBe('session_start');
    expect(types.at(-1)).toBe('done');
  });
});

describe('the event manager', () => {
  test('dispatches by type to sync and async handlers, and survives a failing handler', async () => {
    await using h = await startHarness([
      { toolCalls: [{ name: 'list_directory', arguments: {} }] },
      { text: 'ok' },
    ]);
    const seen: string[] = [];
    h.runtime.events.on('tool_call', (event) => void seen.push(`sync:${event.tool_name}`));
    h.runtime.events.on('done', async (event) => {
      await new Promise((resolve) => setImmediate(resolve));
      seen.push(`async:${event.output}`);
    });
    h.runtime.events.on('session_start', () => {
      throw new Error('handler bug');
    });
    const { result } = await h.collect({ prompt: 'x' });
    expect(result?.output).toBe('ok');
    expect(seen).toEqual(['sync:list_directory', 'async:ok']);
  });
});
