import { join, resolve } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { FsBlobStore } from '../artifacts/index.ts';
import type { RuntimeConfig } from '../config/index.ts';
import { ConfigError, KeelError, StoreError } from '../errors/index.ts';
import {
  type BlobStore,
  openSqlite,
  openSqliteRunStore,
  type RunStore,
  SqliteRunStore,
} from '../store/index.ts';

export interface OpenedStores {
  store: RunStore;
  blobs: BlobStore;
}

/** The runtime's own SQLite database (sessions, and the default store); a failure to open it is a STORE_ERROR naming the file. */
export function openDatabase(path: string): DatabaseSync {
  try {
    return openSqlite(path);
  } catch (error) {
    if (KeelError.is(error)) throw error;
    throw new StoreError(`Could not open the database ${path}: ${(error as Error).message}`, undefined, {
      cause: error,
    });
  }
}

interface PostgresModule {
  createPostgresStore(options: { url: string; schema?: string }): Promise<RunStore>;
  S3BlobStore: new (options: {
    bucket: string;
    prefix?: string;
    endpoint?: string;
    region?: string;
    forcePathStyle?: boolean;
  }) => BlobStore;
}

/**
 * Opens the store and blob store the configuration names (project `.runtime/config.json` over the global
 * one), so every surface working on the same directory finds the same runs. The default is SQLite in the
 * runtime directory, sharing the session database; PostgreSQL and S3 come from `@keel/store-postgres`.
 */
export async function openStores(
  config: RuntimeConfig,
  paths: { runtimeDir: string; workdir: string; db: DatabaseSync; defaultDbPath: string },
  now?: () => Date,
): Promise<OpenedStores> {
  const storeConfig = config.store ?? { kind: 'sqlite' as const };
  let store: RunStore;
  if (storeConfig.kind === 'postgres') {
    const module = await loadPostgres('store.kind "postgres"');
    store = await module.createPostgresStore({
      url: storeConfig.url,
      ...(storeConfig.schema ? { schema: storeConfig.schema } : {}),
    });
  } else {
    const path = storeConfig.path ? resolve(paths.workdir, storeConfig.path) : paths.defaultDbPath;
    store =
      path === paths.defaultDbPath
        ? new SqliteRunStore(paths.db, now ? { now } : {})
        : await openSqliteRunStore(path, now ? { now } : {});
  }
  const artifacts = config.artifacts ?? { kind: 'file' as const };
  let blobs: BlobStore;
  if (artifacts.kind === 's3') {
    const module = await loadPostgres('artifacts.kind "s3"');
    blobs = new module.S3BlobStore({
      bucket: artifacts.bucket,
      ...(artifacts.prefix ? { prefix: artifacts.prefix } : {}),
      ...(artifacts.endpoint ? { endpoint: artifacts.endpoint } : {}),
      ...(artifacts.region ? { region: artifacts.region } : {}),
      ...(artifacts.force_path_style !== undefined ? { forcePathStyle: artifacts.force_path_style } : {}),
    });
  } else {
    blobs = new FsBlobStore(
      artifacts.dir ? resolve(paths.workdir, artifacts.dir) : join(paths.runtimeDir, 'artifacts'),
    );
  }
  return { store, blobs };
}

async function loadPostgres(setting: string): Promise<PostgresModule> {
  // A variable specifier keeps the runtime free of a static dependency on the production extra.
  const name = '@keel/store-postgres';
  try {
    return (await import(name)) as PostgresModule;
  } catch (error) {
    if (KeelError.is(error)) throw error;
    throw new ConfigError(
      `${setting} needs the @keel/store-postgres package: npm install @keel/store-postgres`,
      {
        option: setting,
        cause: (error as Error).message,
      },
    );
  }
}
