import type { WorkbenchStore } from './contract.ts';
import { createSqliteWorkbenchStore } from './sqlite/index.ts';

/** What `@keel/store-postgres/workbench` offers the workbench (loaded only when a URL asks for it). */
interface PostgresWorkbenchModule {
  createPostgresWorkbenchStore(options: { url: string }): Promise<WorkbenchStore>;
}

/**
 * The store of every record: the one an embedder gave (`createWorkbench({ store })`), else PostgreSQL at
 * `WORKBENCH_DATABASE_URL`, else SQLite in the data directory (`workbench.db`).
 */
export async function openWorkbenchStore(
  given: WorkbenchStore | undefined,
  databaseUrl: string | undefined,
  sqlitePath: string,
): Promise<WorkbenchStore> {
  if (given) return given;
  if (!databaseUrl) return createSqliteWorkbenchStore(sqlitePath);
  const postgres = await loadPostgres();
  return postgres.createPostgresWorkbenchStore({ url: databaseUrl });
}

async function loadPostgres(): Promise<PostgresWorkbenchModule> {
  // A variable specifier: the workbench has no static dependency on the PostgreSQL package.
  const name = '@keel/store-postgres/workbench';
  try {
    return (await import(name)) as PostgresWorkbenchModule;
  } catch (error) {
    throw new Error(
      `WORKBENCH_DATABASE_URL needs the @keel/store-postgres package: npm install @keel/store-postgres (${(error as Error).message})`,
      { cause: error },
    );
  }
}
