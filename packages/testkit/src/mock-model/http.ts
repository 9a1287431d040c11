import type { IncomingMessage, ServerResponse } from 'node:http';

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Parse a body as JSON; keep the raw text when it is not JSON so it can still be recorded. */
export function parseBody(text: string): { value: unknown; json: boolean } {
  if (text === '') return { value: undefined, json: false };
  try {
    return { value: JSON.parse(text), json: true };
  } catch {
    return { value: text, json: false };
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Write and wait until the bytes are handed to the socket (so a later destroy does not eat them). */
export function writeAndFlush(res: ServerResponse, data: string): Promise<void> {
  return new Promise((resolve, reject) => {
    res.write(data, (error) => (error ? reject(error) : resolve()));
  });
}
