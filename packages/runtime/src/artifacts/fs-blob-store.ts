import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidParamsError, RecordNotFoundError, toStoreError } from '../errors/index.ts';
import { writeFileAtomic } from '../files/index.ts';
import type { BlobStore } from '../store/index.ts';

const scheme = 'file:';

/**
 * Artifact payloads as files under one directory (the runtime's `<runtimeDir>/artifacts`). The uri is
 * `file:` plus the key, relative to the root, so the runtime directory can move without rewriting
 * records, and any process with the same root reads what another wrote.
 */
export class FsBlobStore implements BlobStore {
  readonly kind = 'file';
  readonly #root: string;

  constructor(root: string) {
    this.#root = root;
  }

  async put(key: string, data: Uint8Array | string): Promise<{ uri: string; size: number; sha256: string }> {
    const segments = keySegments(key);
    if (!segments) {
      throw new InvalidParamsError(
        `Blob key '${key}' is not a relative path of plain names joined by '/'; it must stay inside the store.`,
        { key },
      );
    }
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    const path = join(this.#root, ...segments);
    try {
      await writeFileAtomic(path, bytes);
    } catch (error) {
      // The temp file is gone (writeFileAtomic): a full disk leaves no half payload behind.
      throw toStoreError(error, `Could not store the payload '${key}' under ${this.#root}`, { key });
    }
    return {
      uri: scheme + segments.join('/'),
      size: bytes.byteLength,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    };
  }

  async get(uri: string): Promise<Uint8Array> {
    const segments = uri.startsWith(scheme) ? keySegments(uri.slice(scheme.length)) : null;
    // A uri of another store (s3://…, an absolute file:///…) is as unknown here as a deleted payload.
    if (!segments) throw new RecordNotFoundError('ARTIFACT_NOT_FOUND', 'Artifact payload', uri);
    try {
      const buffer = await readFile(join(this.#root, ...segments));
      return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') {
        throw new RecordNotFoundError('ARTIFACT_NOT_FOUND', 'Artifact payload', uri);
      }
      throw toStoreError(error, `Could not read the payload '${uri}' under ${this.#root}`, { uri });
    }
  }
}

/**
 * The key's path segments, or null when the key could leave the root or name something odd: only
 * plain names joined by '/', no '.', '..', empty segments, backslashes, drive letters or NUL.
 */
function keySegments(key: string): string[] | null {
  if (key === '' || /[\\:\0]/.test(key)) return null;
  const segments = key.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return null;
  return segments;
}
