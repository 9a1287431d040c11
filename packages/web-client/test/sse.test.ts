// The one SSE parser of every Keel client: framing by the standard's rules, whatever the chunking.
import { describe, expect, test } from 'vitest';
import { type SseMessage, sseMessages } from '../src/sse.ts';

/** A body that delivers `chunks` one read at a time, then ends (or breaks, with `error`). */
function body(chunks: string[], error?: Error): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      if (error) controller.error(error);
      else controller.close();
    },
  });
}

async function all(stream: ReadableStream<Uint8Array>): Promise<SseMessage[]> {
  const found: SseMessage[] = [];
  for await (const message of sseMessages(stream)) found.push(message);
  return found;
}

describe('sseMessages', () => {
  test('splits messages across chunks, skips comments, joins data lines', async () => {
    const messages = await all(
      body([': keep-alive\n\nid: 1\ndata: {"a"', ':1}\n\nid:2\ndata: one\n', 'data:two\n\n']),
    );
    expect(messages).toEqual([
      { id: '1', data: '{"a":1}' },
      { id: '2', data: 'one\ntwo' },
    ]);
  });

  test('reads CRLF and a lone CR as line ends (the standard allows both)', async () => {
    expect(await all(body(['id: 7\r\ndata: crlf\r\n\r\n', 'id: 8\rdata: cr\r\r', ': next\n']))).toEqual([
      { id: '7', data: 'crlf' },
      { id: '8', data: 'cr' },
    ]);
  });

  test('a retry: field and an unknown field are not data, and a leading BOM is not part of a field', async () => {
    expect(await all(body(['\uFEFFretry: 3000\nid: 3\nfoo: bar\ndata: x\n\n']))).toEqual([
      { id: '3', data: 'x' },
    ]);
  });

  test('a message cut off by the end of the stream is not delivered', async () => {
    expect(await all(body(['id: 1\ndata: whole\n\nid: 2\ndata: cut']))).toEqual([{ id: '1', data: 'whole' }]);
  });

  test('a broken connection rejects after the messages that arrived', async () => {
    const found: SseMessage[] = [];
    const reading = (async () => {
      for await (const message of sseMessages(body(['id: 1\ndata: a\n\n'], new Error('reset'))))
        found.push(message);
    })();
    await expect(reading).rejects.toThrow('reset');
  });
});
