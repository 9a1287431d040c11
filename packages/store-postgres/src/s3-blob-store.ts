import { createHash } from 'node:crypto';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { InvalidParamsError, KeelError, RecordNotFoundError, StoreError } from '@keel/runtime/errors';
import type { BlobStore } from '@keel/runtime/store/contract';

export interface S3BlobStoreOptions {
  bucket: string;
  /** Prepended to every key, e.g. `keel/`; include the trailing slash. Default none. */
  prefix?: string;
  /** For S3-compatible servers (MinIO, Ceph, R2…); default AWS S3. */
  endpoint?: string;
  /** Default `AWS_REGION`, else `us-east-1`. */
  region?: string;
  /** Path-style URLs (`endpoint/bucket/key`), which most S3-compatible servers need. */
  forcePathStyle?: boolean;
  /** Default: the AWS SDK's own lookup (environment, shared config, instance role). Never logged. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/**
 * Artifact payloads in an S3-compatible bucket, addressed as `s3://bucket/key`.
 *
 * @example
 * const blobs = new S3BlobStore({ bucket: 'keel-artifacts', prefix: 'prod/' });
 * const { uri, sha256 } = await blobs.put('run_…/art_…', JSON.stringify(review));
 * const bytes = await blobs.get(uri);
 */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3';
  readonly #bucket: string;
  readonly #prefix: string;
  readonly #client: S3Client;

  constructor(options: S3BlobStoreOptions) {
    if (!options.bucket)
      throw new InvalidParamsError('S3BlobStore needs a bucket name.', { option: 'bucket' });
    this.#bucket = options.bucket;
    this.#prefix = options.prefix ?? '';
    this.#client = new S3Client({
      endpoint: options.endpoint,
      region: options.region ?? process.env.AWS_REGION ?? 'us-east-1',
      forcePathStyle: options.forcePathStyle,
      credentials: options.credentials,
    });
  }

  async put(key: string, data: Uint8Array | string): Promise<{ uri: string; size: number; sha256: string }> {
    if (!key) throw new InvalidParamsError('A blob key must not be empty.', { key });
    const body = typeof data === 'string' ? new TextEncoder().encode(data) : data;
    const objectKey = `${this.#prefix}${key}`;
    try {
      await this.#client.send(new PutObjectCommand({ Bucket: this.#bucket, Key: objectKey, Body: body }));
    } catch (error) {
      throw s3Failure('put', objectKey, error);
    }
    return {
      uri: `s3://${this.#bucket}/${objectKey}`,
      size: body.byteLength,
      sha256: createHash('sha256').update(body).digest('hex'),
    };
  }

  async get(uri: string): Promise<Uint8Array> {
    const objectKey = this.#keyOf(uri);
    const missing = () => new RecordNotFoundError('ARTIFACT_NOT_FOUND', 'Artifact payload', uri);
    if (objectKey === null) throw missing();
    try {
      const reply = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: objectKey }));
      if (!reply.Body) throw missing();
      return await reply.Body.transformToByteArray();
    } catch (error) {
      if (KeelError.is(error)) throw error;
      if (isMissingKey(error)) throw missing();
      throw s3Failure('get', objectKey, error);
    }
  }

  async close(): Promise<void> {
    this.#client.destroy();
  }

  /** The object key of one of this bucket's uris; null for any other uri (another bucket or scheme). */
  #keyOf(uri: string): string | null {
    const start = `s3://${this.#bucket}/`;
    return uri.startsWith(start) && uri.length > start.length ? uri.slice(start.length) : null;
  }
}

/** A missing object, not a missing bucket: that one is a configuration fault and stays a StoreError. */
function isMissingKey(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  if (e?.name === 'NoSuchBucket') return false;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/** The SDK's error name and message only: they carry neither credentials nor signatures. */
function s3Failure(action: string, objectKey: string, error: unknown): StoreError {
  const name = (error as { name?: string } | null)?.name ?? 'Error';
  const message = error instanceof Error ? error.message : String(error);
  return new StoreError(
    `S3 ${action} of '${objectKey}' failed: ${name}: ${message}`,
    { key: objectKey },
    {
      cause: error,
    },
  );
}
