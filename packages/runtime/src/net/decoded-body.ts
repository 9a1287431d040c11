import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { nodeZlib } from './builtins.ts';

/** The zlib decoder of each content coding `fetch` decodes. */
const decoders = new Map<string, 'createGunzip' | 'createInflate' | 'createBrotliDecompress'>([
  ['gzip', 'createGunzip'],
  ['x-gzip', 'createGunzip'],
  ['deflate', 'createInflate'],
  ['br', 'createBrotliDecompress'],
]);

/**
 * A `node:http` answer's body as sent, decompressed as `fetch` would (gzip, deflate, br). Joined with
 * `pipeline`, not `pipe`: a cancelled or failed decoder also destroys the response, which frees its socket.
 */
export function decodedBody(response: IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const decoderOf = decoders.get(encoding);
  if (!decoderOf) return response;
  const decoder = nodeZlib()[decoderOf]();
  pipeline(response, decoder, () => {});
  return decoder;
}
