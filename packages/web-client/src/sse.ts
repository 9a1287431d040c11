import { EventSourceParserStream } from 'eventsource-parser/stream';

/** One Server-Sent Events message: its `id:` (a run event's seq) and its `data:` lines joined. */
export interface SseMessage {
  id: string | undefined;
  data: string;
}

/**
 * The messages of an SSE body as they arrive, parsed by the standard's rules (`eventsource-parser`: CR, LF
 * and CRLF line ends, comments, `retry:`, a BOM); rejects when the connection breaks. The one SSE parser of
 * every Keel client: this one and the console's.
 */
export async function* sseMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const reader = body
    // Node's and the DOM's typings of TextDecoderStream differ in what they accept; both take bytes.
    .pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      yield { id: value.id, data: value.data };
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
