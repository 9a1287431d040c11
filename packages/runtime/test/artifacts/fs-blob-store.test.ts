import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { FsBlobStore } from '../../src/artifacts/index.ts';
import type { ErrorCode } from '../../src/errors/index.ts';
import { KeelError } from '../../src/errors/index.ts';

async function codeOf(promise: Promise<unknown>): Promise<ErrorCode | string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return KeelError.is(error) ? error.code : `raw: ${String(error)}`;
  }
}

const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

describe('FsBlobStore', () => {
  let dir: string;
  let root: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'keel-blobs-'));
    root = join(dir, 'runtime', 'artifacts');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('put stores text and bytes under the root; get reads them back from any store on the root', async () => {
    const blobs = new FsBlobStore(root);
    expect(blobs.kind).toBe('file');
    const text = '{"verdict":"pass","note":"héllo 👋"}';
    const stored = await blobs.put('run_1/art_review', text);
    expect(stored).toEqual({
      uri: 'file:run_1/art_review',
      size: Buffer.byteLength(text),
      sha256: sha256(text),
    });
    expect(await readFile(join(root, 'run_1', 'art_review'), 'utf8')).toBe(text);

    const bytes = new Uint8Array([0, 1, 2, 254, 255]);
    const binary = await blobs.put('run_1/nested/deeper/art_bin', bytes);
    expect(binary).toEqual({ uri: 'file:run_1/nested/deeper/art_bin', size: 5, sha256: sha256(bytes) });

    const reader = new FsBlobStore(root);
    expect(Buffer.from(await reader.get(stored.uri)).toString('utf8')).toBe(text);
    const readBack = await reader.get(binary.uri);
    expect(readBack).toBeInstanceOf(Uint8Array);
    expect([...readBack]).toEqual([...bytes]);
  });

  test('put replaces a payload whole and leaves no temporary files behind', async () => {
    const blobs = new FsBlobStore(root);
    await blobs.put('run_1/art_1', 'first version, longer than the second');
    const second = await blobs.put('run_1/art_1', 'second');
    expect(second.size).toBe(6);
    expect(Buffer.from(await blobs.get(second.uri)).toString()).toBe('second');
    expect(await readdir(join(root, 'run_1'))).toEqual(['art_1']);
  });

  test('keys that could leave the root are INVALID_PARAMS and write nothing', async () => {
    const blobs = new FsBlobStore(root);
    for (const key of [
      '../escape',
      'run_1/../../escape',
      '/etc/escape',
      '',
      'run_1//art',
      './art',
      'run_1/art/',
      'C:/escape',
      'run_1\\..\\escape',
    ]) {
      expect(await codeOf(blobs.put(key, 'x')), key).toBe('INVALID_PARAMS');
    }
    expect(await readdir(dir)).toEqual([]);
  });

  test('get of a missing payload or of a uri this store does not own is ARTIFACT_NOT_FOUND', async () => {
    const blobs = new FsBlobStore(root);
    await blobs.put('run_1/art_1', 'payload');
    for (const uri of [
      'file:run_1/art_missing',
      'file:run_2/art_1',
      'file:run_1/art_1/below',
      'file:run_1',
      's3://bucket/run_1/art_1',
      'run_1/art_1',
      'file:../runtime/artifacts/run_1/art_1',
      `file://${join(root, 'run_1', 'art_1')}`,
      'file:',
    ]) {
      expect(await codeOf(blobs.get(uri)), uri).toBe('ARTIFACT_NOT_FOUND');
    }
  });
});
