import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, mkdir, readdir, readFile, readlink, rename, rm, symlink } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ProtocolError } from './protocol-error.ts';

/** One entry of a listing, as docs/remote-sandbox.md defines it. */
export interface Entry {
  path: string;
  type: 'file' | 'directory' | 'symlink';
  size?: number;
  sha256?: string;
  executable?: boolean;
  target?: string;
}

/** Hashes by path, valid while size, mtime and inode stay the same. */
export type HashCache = Map<string, { size: number; mtimeMs: number; ino: number; sha256: string }>;

/** Checks a relative path from a request and returns its segments; `..`, `.`, empty segments and NUL are refused. */
export function segmentsOf(path: string): string[] {
  const segments = path.split('/');
  if (
    path === '' ||
    path.length > 4096 ||
    segments.some(
      (segment) => segment === '' || segment === '.' || segment === '..' || segment.includes('\0'),
    )
  ) {
    throw new ProtocolError(400, 'INVALID_PARAMS', `"${path}" is not a relative path inside the sandbox.`, {
      path,
    });
  }
  return segments;
}

/**
 * The absolute path of `segments` under `root`, after checking that every parent is a real directory (a
 * symlink could lead out of the sandbox); missing parents are created when `create`, else it is a 404.
 */
export async function resolveInside(root: string, segments: string[], create: boolean): Promise<string> {
  let current = root;
  for (const segment of segments.slice(0, -1)) {
    current = join(current, segment);
    const info = await lstat(current).catch(() => undefined);
    if (info?.isDirectory()) continue;
    if (info) {
      throw new ProtocolError(409, 'CONFLICT', `A parent of "${segments.join('/')}" is not a directory.`, {
        path: segments.join('/'),
      });
    }
    if (!create) {
      throw new ProtocolError(404, 'FILE_NOT_FOUND', `No file "${segments.join('/')}" in the sandbox.`, {
        path: segments.join('/'),
      });
    }
    await mkdir(current);
  }
  return join(current, segments.at(-1) as string);
}

/** Every entry under `root`, symlinks not followed, sorted by path; files hashed through `cache`. */
export async function listEntries(root: string, cache: HashCache): Promise<Entry[]> {
  const entries: Entry[] = [];
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names.sort()) {
      const path = prefix === '' ? name : `${prefix}/${name}`;
      const absolute = join(dir, name);
      const info = await lstat(absolute).catch(() => undefined);
      if (info?.isDirectory()) {
        entries.push({ path, type: 'directory' });
        await walk(absolute, path);
      } else if (info?.isSymbolicLink()) {
        const target = await readlink(absolute).catch(() => undefined);
        if (target !== undefined) entries.push({ path, type: 'symlink', target });
      } else if (info?.isFile()) {
        let cached = cache.get(path);
        if (
          !cached ||
          cached.size !== info.size ||
          cached.mtimeMs !== info.mtimeMs ||
          cached.ino !== info.ino
        ) {
          const contents = await readFile(absolute).catch(() => undefined);
          if (!contents) continue;
          cached = {
            size: info.size,
            mtimeMs: info.mtimeMs,
            ino: info.ino,
            sha256: createHash('sha256').update(contents).digest('hex'),
          };
          cache.set(path, cached);
        }
        entries.push({
          path,
          type: 'file',
          size: info.size,
          sha256: cached.sha256,
          executable: (info.mode & 0o111) !== 0,
        });
      }
    }
  };
  await walk(root, '');
  return entries;
}

/**
 * `PUT …/files/{path}`: the request body becomes the file (or the link's target), replacing what was there.
 * `scratch` is a directory on the same file system, outside the workdir.
 */
export async function putEntry(
  root: string,
  scratch: string,
  segments: string[],
  type: Entry['type'],
  executable: boolean,
  req: IncomingMessage,
  maxBytes: number,
): Promise<void> {
  const absolute = await resolveInside(root, segments, true);
  const existing = await lstat(absolute).catch(() => undefined);
  if (type === 'directory') {
    if (existing?.isDirectory()) return;
    if (existing) await rm(absolute, { recursive: true, force: true });
    await mkdir(absolute);
    return;
  }
  // Written outside the workdir, so a listing meanwhile never shows half a file.
  const temp = join(scratch, `put-${randomBytes(6).toString('hex')}`);
  try {
    if (type === 'symlink') {
      const target = (await readLimited(req, 4096)).toString('utf8');
      if (target === '' || target.includes('\0')) {
        throw new ProtocolError(400, 'INVALID_PARAMS', 'A symlink needs its target as the request body.');
      }
      await symlink(target, temp);
    } else {
      let received = 0;
      const counted = async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          received += chunk.length;
          if (received > maxBytes) {
            throw new ProtocolError(413, 'PAYLOAD_TOO_LARGE', `Files are limited to ${maxBytes} bytes.`);
          }
          yield chunk;
        }
      };
      await pipeline(req, counted, createWriteStream(temp, { mode: executable ? 0o755 : 0o644 }));
    }
    if (existing?.isDirectory()) await rm(absolute, { recursive: true, force: true });
    await rename(temp, absolute);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** `GET …/files/{path}`: the file's bytes. */
export async function sendFile(root: string, segments: string[], res: ServerResponse): Promise<void> {
  const absolute = await resolveInside(root, segments, false);
  const info = await lstat(absolute).catch(() => undefined);
  const path = segments.join('/');
  if (!info) throw new ProtocolError(404, 'FILE_NOT_FOUND', `No file "${path}" in the sandbox.`, { path });
  if (!info.isFile()) throw new ProtocolError(409, 'CONFLICT', `"${path}" is not a regular file.`, { path });
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': info.size });
  await pipeline(createReadStream(absolute), res);
}

/** `DELETE …/files/{path}`: removes a file, a symlink (not what it points to) or a directory with its contents. */
export async function deleteEntry(root: string, segments: string[]): Promise<void> {
  const absolute = await resolveInside(root, segments, false).catch((error: unknown) => {
    // A missing parent: the path is gone already, which is what was asked.
    if (error instanceof ProtocolError && error.status === 404) return undefined;
    throw error;
  });
  if (absolute) await rm(absolute, { recursive: true, force: true });
}

/** A request body of at most `limit` bytes. */
export async function readLimited(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit)
      throw new ProtocolError(413, 'PAYLOAD_TOO_LARGE', `The request body is over ${limit} bytes.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
