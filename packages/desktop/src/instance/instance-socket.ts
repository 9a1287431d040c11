import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type InstanceAnswer, type InstanceRequest, instanceAnswer, instanceRequest } from './messages.ts';

/** Longest line either side reads: a request is a few dozen bytes. */
const maxLine = 4096;
/** Unix socket paths longer than this do not fit `sockaddr_un` (108 bytes with its NUL on Linux). */
const maxSocketPath = 100;

/**
 * Where the instance of a data directory listens: `{home}/desktop/instance.sock`, in a folder only its
 * owner may enter (mode 0700; the socket itself 0600), so no other user of the machine can reach it. A
 * home whose path is too long for a socket uses a private folder in the temporary directory, named by
 * the home's hash.
 */
export function instanceSocketPath(home: string): string {
  const beside = join(home, 'desktop', 'instance.sock');
  if (Buffer.byteLength(beside) <= maxSocketPath) return beside;
  const hash = createHash('sha256').update(home).digest('hex').slice(0, 24);
  return join(tmpdir(), `keel-desktop-${process.getuid?.() ?? 'user'}`, `${hash}.sock`);
}

export type InstanceClaim =
  | { first: true; server: Server }
  | { first: false; answer: InstanceAnswer | undefined };

/**
 * Becomes the instance for `path` (listening, and answering requests with `handle`), or, when another
 * instance already listens there, sends it `request` and answers what it said. A socket file left by an
 * instance that died is taken over.
 */
export async function claimInstance(
  path: string,
  request: InstanceRequest,
  handle: (request: InstanceRequest) => Promise<InstanceAnswer>,
): Promise<InstanceClaim> {
  privateFolder(join(path, '..'));
  for (let attempt = 0; attempt < 3; attempt++) {
    const server = await listen(path, handle);
    if (server) {
      chmodSync(path, 0o600);
      return { first: true, server };
    }
    const answer = await ask(path, request);
    if (answer !== 'refused') return { first: false, answer };
    // Nobody listens on it: a dead instance's file. Moved aside first, so that of two launches taking it
    // over at once only one removes it, and the other finds the winner listening.
    const aside = `${path}.${process.pid}.stale`;
    try {
      renameSync(path, aside);
      rmSync(aside, { force: true });
    } catch {
      // another launch moved it first
    }
  }
  throw new Error(`cannot listen on ${path}, and nobody answers there`);
}

function privateFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const stat = statSync(folder);
  if (process.getuid && stat.uid !== process.getuid()) {
    throw new Error(`${folder} belongs to another user: refusing to put the instance's socket there`);
  }
  if ((stat.mode & 0o077) !== 0) chmodSync(folder, 0o700);
}

function listen(path: string, handle: (request: InstanceRequest) => Promise<InstanceAnswer>) {
  return new Promise<Server | undefined>((resolve, reject) => {
    const server = createServer((socket) => serve(socket, handle));
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') resolve(undefined);
      else reject(error);
    });
    server.listen(path, () => resolve(server));
  });
}

/** One request per connection: a known message gets its answer; anything else an error, then the end. */
function serve(socket: Socket, handle: (request: InstanceRequest) => Promise<InstanceAnswer>): void {
  socket.setTimeout(5000, () => socket.destroy());
  readLine(socket, async (line) => {
    const parsed = instanceRequest.safeParse(parseJson(line));
    const answer: InstanceAnswer = parsed.success
      ? await handle(parsed.data).catch((error: Error) => ({ ok: false, error: error.message }))
      : { ok: false, error: 'unknown request' };
    socket.end(`${JSON.stringify(answer)}\n`);
  });
}

/** Sends `request` to the instance at `path`: its answer, `refused` when nobody listens there. */
export function ask(path: string, request: InstanceRequest): Promise<InstanceAnswer | undefined | 'refused'> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.setTimeout(10_000, () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      resolve(error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? 'refused' : undefined);
    });
    socket.once('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    readLine(socket, (line) => {
      const parsed = instanceAnswer.safeParse(parseJson(line));
      resolve(parsed.success ? parsed.data : undefined);
      socket.end();
    });
  });
}

function readLine(socket: Socket, onLine: (line: string) => void): void {
  let text = '';
  const onData = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    const end = text.indexOf('\n');
    if (end >= 0) {
      socket.off('data', onData);
      onLine(text.slice(0, end));
    } else if (text.length > maxLine) {
      socket.destroy();
    }
  };
  socket.on('data', onData);
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}
