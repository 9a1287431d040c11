// The client side of the body-limit tests, run as a process of its own (see `sendOversized` in
// oversized-body.ts): real HTTP clients POSTing a body, one request after the other, printing what each
// one read, or the network error it got instead. Plain Node (no vitest): `node oversized-body-client.ts
// '<batch as JSON>'`.
import { request } from 'node:http';

export type Client = 'fetch' | 'node:http';
/** How the body's length is told: up front in `Content-Length`, or not at all (`Transfer-Encoding: chunked`). */
export type Framing = 'content-length' | 'chunked';

export interface Batch {
  url: string;
  client: Client;
  framing: Framing;
  /** Bytes of each body. */
  size: number;
  /** Requests to send, each awaited before the next. */
  times: number;
}

/** What one request got: the status and JSON body its client read, or why it read none. */
export type Outcome = { status: number; body: unknown } | { networkError: string };

const chunkSize = 16 * 1024;

/** A JSON string of exactly `size` bytes, cut in chunks as a streaming client sends it. */
function jsonBody(size: number): Buffer {
  return Buffer.from(`"${'x'.repeat(Math.max(0, size - 2))}"`);
}

function* chunksOf(body: Buffer): Generator<Buffer> {
  for (let start = 0; start < body.length; start += chunkSize) yield body.subarray(start, start + chunkSize);
}

async function postWithFetch(url: string, framing: Framing, body: Buffer): Promise<Outcome> {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunksOf(body)) controller.enqueue(chunk);
      controller.close();
    },
  });
  // A Uint8Array goes out with its Content-Length; a stream, whose length fetch cannot know, chunked.
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    ...(framing === 'content-length' ? { body } : { body: stream, duplex: 'half' }),
  } as RequestInit);
  return { status: response.status, body: JSON.parse(await response.text()) };
}

function postWithNodeHttp(url: string, framing: Framing, body: Buffer): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (framing === 'content-length') headers['content-length'] = String(body.length);
    const outgoing = request(url, { method: 'POST', headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('error', reject);
      response.on('end', () => {
        try {
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) });
        } catch {
          reject(new Error(`not JSON (${response.statusCode}): ${text.slice(0, 300)}`));
        }
      });
    });
    outgoing.on('error', reject);
    // Written as a streaming client writes: several chunks (without Content-Length, each one chunk-framed).
    for (const chunk of chunksOf(body)) outgoing.write(chunk);
    outgoing.end();
  });
}

function networkError(error: unknown): Outcome {
  const { message, code, cause } = error as Error & { code?: string; cause?: { code?: string } };
  return { networkError: [message, cause?.code ?? code].filter(Boolean).join(' ') };
}

/** Sends the batch's requests one after the other (each awaited), answering each one's outcome. */
export async function sendBatch({ url, client, framing, size, times }: Batch): Promise<Outcome[]> {
  const body = jsonBody(size);
  const outcomes: Outcome[] = [];
  for (let sent = 0; sent < times; sent++) {
    const send =
      client === 'fetch' ? postWithFetch(url, framing, body) : postWithNodeHttp(url, framing, body);
    outcomes.push(await send.catch(networkError));
  }
  return outcomes;
}

if (import.meta.main) {
  const outcomes = await sendBatch(JSON.parse(process.argv[2] ?? '{}') as Batch);
  process.stdout.write(JSON.stringify(outcomes));
}
