/**
 * @keel/store-postgres/workbench: the workbench's store (`WorkbenchStore` of `@keel/workbench`) on
 * PostgreSQL, for several workbench processes sharing one database. The workbench loads it when
 * `WORKBENCH_DATABASE_URL` is set.
 *
 * @example
 * import { createPostgresWorkbenchStore } from '@keel/store-postgres/workbench';
 * const store = await createPostgresWorkbenchStore({ url: 'postgres://keel@db:5432/keel' });
 */
export { createPostgresWorkbenchStore, type PostgresWorkbenchStoreOptions } from './create-store.ts';
export { PostgresWorkbenchStore } from './postgres-workbench-store.ts';
