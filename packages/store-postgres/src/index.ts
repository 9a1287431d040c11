/**
 * @keel/store-postgres: Keel's production storage. Runs live in PostgreSQL, shared by any number of
 * worker processes; artifact payloads live in an S3-compatible bucket.
 *
 * @example
 * import { createPostgresStore, S3BlobStore } from '@keel/store-postgres';
 * const store = await createPostgresStore({ url: 'postgres://keel@db:5432/keel' });
 * const blobs = new S3BlobStore({ bucket: 'keel-artifacts' });
 */
export type { PostgresStoreOptions } from './create-postgres-store.ts';
export { createPostgresStore } from './create-postgres-store.ts';
export { PostgresRunStore } from './postgres-store.ts';
export type { S3BlobStoreOptions } from './s3-blob-store.ts';
export { S3BlobStore } from './s3-blob-store.ts';
