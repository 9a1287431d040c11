import { describe, expect, test } from 'vitest';
import { startServer } from './harness.ts';

interface Message {
  id: number;
  event: { type: string; [key: string]: unknown };
}

/** Reads a Server-Sent Events response to its end (or until `stopAfter` messages). */
async function readEvents(response: Response, stopAfter = Number.POSITIVE_INFINITY): Promise<Message[]> {
  const messages: Message[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = response.body!.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const id = block.match(/^id: (\d+)$/m)?.[1];
      const data = block.match(/^data: (.*)$/m)?.[1];
      if (id && data) messages.push({ id: Number(id), event: JSON.parse(data) });
      end = buffer.indexOf('\n\n');
    }
    if (messages.length >= stopAfter) {
      await reader.cancel();
      break;
    }
  }
  return messages;
}

describe('GET /runtime/runs/{id}/events', () => {
  test('streams a run live as SSE, and a reconnect with Last-Event-ID gets only what it missed', async () => {
    await using s = await startServer([{ text: 'a b c d e f g h', chunkDelayMs: 30 }]);
    const { body: run } = await s.api('POST', '/runtime/runs', { prompt: 'letters', workdir: s.repo.path });
    const response = await fetch(`${s.base}/runtime/runs/${run.id}/events`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const live = await readEvents(response);
    expect(live.map((message) => message.id)).toEqual(live.map((_, index) => index + 1));
    expect(live[0]?.event).toMatchObject({ type: 'session_start', session_id: run.session_id });
    expect(live.at(-1)?.event).toMatchObject({ type: 'done', output: 'a b c d e f g h' });
    const text = live
      .filter((m) => m.event.type === 'text_delta')
      .map((m) => m.event.content)
      .join('');
    expect(text).toBe('a b c d e f g h');

    // A reader that dropped after event 3 picks up at 4, through to the end.
    const resumed = await fetch(`${s.base}/runtime/runs/${run.id}/events`, {
      headers: { 'last-event-id': '3' },
    });
    expect(await readEvents(resumed)).toEqual(live.slice(3));
    const after = await fetch(`${s.base}/runtime/runs/${run.id}/events?after=${live.length - 1}`);
    expect(await readEvents(after)).toEqual(live.slice(-1));
  });

  test('a client leaving mid-stream does not stop the run; unknown runs and bad cursors are errors', async () => {
    await using s = await startServer([{ text: 'word '.repeat(60), chunkDelayMs: 10 }]);
    const { body: run } = await s.api('POST', '/runtime/runs', { prompt: 'talk', workdir: s.repo.path });
    const first = await readEvents(await fetch(`${s.base}/runtime/runs/${run.id}/events`), 3);
    expect(first.length).toBeGreaterThanOrEqual(3);
    const finished = await s.until(run.id, (each) => each.status === 'succeeded');
    expect(finished.result.output).toBe('word '.repeat(60));

    const missing = await s.api('GET', '/runtime/runs/run_nope/events');
    expect(missing).toMatchObject({ status: 404, body: { error: { code: 'RUN_NOT_FOUND' } } });
    const bad = await s.api('GET', `/runtime/runs/${run.id}/events?after=-2`);
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'INVALID_PARAMS' } } });
  });

  test('a stream with nothing to say for the idle time ends by itself', async () => {
    await using s = await startServer(
      [{ toolCalls: [{ name: 'write_file', arguments: { path: 'x.txt', content: 'x' } }] }],
      { config: { security: { require_approval: ['write_file'] } }, streamIdleMs: 300 },
    );
    const { body: run } = await s.api('POST', '/runtime/runs', { prompt: 'write', workdir: s.repo.path });
    await s.until(run.id, (each) => each.status === 'waiting');
    const started = Date.now();
    const messages = await readEvents(await fetch(`${s.base}/runtime/runs/${run.id}/events`));
    expect(messages.at(-1)?.event.type).toBe('interaction_request');
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await s.api('GET', `/runtime/runs/${run.id}`)).body.status).toBe('waiting');
  });
});
