import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { S3BlobStore } from '../src/index.ts';

// A real S3-compatible server (s3rver, files in a temp dir) on a free local port: no network beyond it.
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const bucket = 'keel-test';
let dir: string;
let server: S3rver;
let endpoint: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keel-s3-'));
  server = new S3rver({ address: '127.0.0.1', port: 0, directory: dir, silent: true });
  const address = await server.run();
  endpoint = `http://127.0.0.1:${address.port}`;
  const admin = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
  await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  admin.destroy();
});

afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function openBlobs(options: { bucket?: string; prefix?: string } = {}): S3BlobStore {
  return new S3BlobStore({ bucket, endpoint, forcePathStyle: true, credentials, ...options });
}

describe('S3BlobStore', () => {
  test('puts a payload and gets the same bytes back by its uri', async () => {
    const blobs = openBlobs({ prefix: 'prod/' });
    try {
      const text = '{"verdict":"pass","notes":"ünïcödé"}';
      const put = await blobs.put('run_1/art_1', text);
      const bytes = new TextEncoder().encode(text);
      expect(blobs.kind).toBe('s3');
      expect(put).toEqual({
        uri: `s3://${bucket}/prod/run_1/art_1`,
        size: bytes.byteLength,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      });
      expect(new TextDecoder().decode(await blobs.get(put.uri))).toBe(text);

      const binary = new Uint8Array([0, 1, 2, 255, 254]);
      const stored = await blobs.put('run_1/art_2', binary);
      expect(stored.size).toBe(5);
      expect([...(await blobs.get(stored.uri))]).toEqual([...binary]);
    } finally {
      await blobs.close();
    }
  });

  test('a missing key or another bucket’s uri is ARTIFACT_NOT_FOUND', async () => {
    const blobs = openBlobs();
    try {
      await expect(blobs.get(`s3://${bucket}/run_x/nothing`)).rejects.toMatchObject({
        code: 'ARTIFACT_NOT_FOUND',
      });
      await expect(blobs.get('s3://someone-else/run_x/art_1')).rejects.toMatchObject({
        code: 'ARTIFACT_NOT_FOUND',
      });
      await expect(blobs.get('file:/tmp/art_1')).rejects.toMatchObject({ code: 'ARTIFACT_NOT_FOUND' });
    } finally {
      await blobs.close();
    }
  });

  test('a bucket that does not exist is a STORE_ERROR, not a missing artifact', async () => {
    const blobs = openBlobs({ bucket: 'no-such-bucket' });
    try {
      await expect(blobs.put('k', 'x')).rejects.toMatchObject({ code: 'STORE_ERROR' });
      await expect(blobs.get('s3://no-such-bucket/k')).rejects.toMatchObject({ code: 'STORE_ERROR' });
    } finally {
      await blobs.close();
    }
  });
});

describe('artifacts on S3 chosen by configuration', () => {
  test('a gate’s review artifact goes to the bucket the project config names, and reads back', async () => {
    const { createRuntime } = await import('@keel/runtime');
    const { createTempGitRepo, startMockModel } = await import('@keel/testkit');
    const { mkdir, writeFile } = await import('node:fs/promises');
    await using model = await startMockModel({ script: [{ text: 'PASS' }] });
    await using repo = await createTempGitRepo();
    await mkdir(join(repo.path, '.runtime'), { recursive: true });
    await writeFile(
      join(repo.path, '.runtime', 'config.json'),
      JSON.stringify({
        artifacts: {
          kind: 's3',
          bucket,
          prefix: 'cfg/',
          endpoint,
          region: 'us-east-1',
          force_path_style: true,
        },
      }),
    );
    const home = await mkdtemp(join(tmpdir(), 'keel-s3-home-'));
    // The AWS SDK reads credentials from the environment, as it would in production.
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    process.env.AWS_ACCESS_KEY_ID = credentials.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = credentials.secretAccessKey;
    const runtime = createRuntime({
      runtimeDir: home,
      workdir: repo.path,
      model: 'mock-model',
      modelBaseUrl: model.url,
      env: {},
      // `artifacts` applies from a project file only in a trusted folder.
      trustProjectConfig: true,
    });
    try {
      const result = await runtime.run(
        { prompt: 'check', workdir: repo.path },
        {
          workflow: {
            root: {
              id: 'gate',
              kind: 'gate',
              body: { id: 'work', kind: 'agent', prompt: 'do it' },
              check: { output_of: 'work', contains: 'PASS' },
            },
          },
        },
      );
      const [artifact] = await runtime.runs.artifacts(result.run_id);
      expect(artifact?.uri).toMatch(new RegExp(`^s3://${bucket}/cfg/${result.run_id}/art_`));
      const review = JSON.parse(new TextDecoder().decode(await runtime.artifacts.read(artifact!.id)));
      expect(review).toMatchObject({ gate: 'gate', passed: true });
    } finally {
      await runtime.close();
      await rm(home, { recursive: true, force: true });
      process.env.AWS_ACCESS_KEY_ID = saved.id;
      process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
      if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
      if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
    }
  });
});
