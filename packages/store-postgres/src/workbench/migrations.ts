import type pg from 'pg';
import { type Migration, runMigrations } from '../migration-runner.ts';
import type { WorkbenchTables } from './database.ts';
import { workbenchTables } from './database.ts';

/**
 * The workbench's tables, beside the run store's in the same schema (prefixed `workbench_`, with their own
 * list of applied versions). Ordered and append-only: a released entry never changes, a change is a new one.
 * Version 1 is the SQLite dialect's schema as it stands (packages/workbench/src/store/sqlite/migrations.ts).
 * Timestamps are timestamptz (read back as ISO strings, database.ts), JSON fields `json` (kept as written,
 * key order included, where jsonb would reorder keys), and the columns lists sort by `COLLATE "C"` so that
 * ties and names order byte by byte, as SQLite does, whatever the database's locale.
 */
const migrations: Migration<WorkbenchTables>[] = [
  {
    version: 1,
    sql: (t) => `
      CREATE TABLE ${t.settings} (
        id integer PRIMARY KEY CHECK (id = 1),
        data json NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE TABLE ${t.projects} (
        id text COLLATE "C" PRIMARY KEY,
        name text NOT NULL,
        description text NOT NULL,
        repositories json NOT NULL,
        default_runner text,
        trust_repository_config boolean NOT NULL DEFAULT false,
        repair_turns integer NOT NULL DEFAULT 2,
        run_setup boolean NOT NULL DEFAULT false,
        review_runner text,
        status text NOT NULL,
        error text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX ON ${t.projects} (created_at, id);
      CREATE INDEX ON ${t.projects} (status);
      CREATE TABLE ${t.knowledge} (
        project_id text COLLATE "C" NOT NULL REFERENCES ${t.projects} (id) ON DELETE CASCADE,
        repository text COLLATE "C" NOT NULL,
        layer text COLLATE "C" NOT NULL,
        status text NOT NULL,
        error text,
        session_id text,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (project_id, repository, layer)
      );
      CREATE INDEX ON ${t.knowledge} (status);
      CREATE TABLE ${t.sessions} (
        id text COLLATE "C" PRIMARY KEY,
        kind text NOT NULL,
        owner_id text,
        status text NOT NULL,
        runner text,
        runner_config_id text,
        runner_session_id text,
        run_id text,
        context json NOT NULL,
        error json,
        usage json,
        last_seq bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        ended_at timestamptz
      );
      CREATE INDEX ON ${t.sessions} (owner_id, created_at, id);
      CREATE INDEX ON ${t.sessions} (status, created_at, id);
      CREATE TABLE ${t.tasks} (
        id text COLLATE "C" PRIMARY KEY,
        project_id text COLLATE "C" NOT NULL REFERENCES ${t.projects} (id) ON DELETE CASCADE,
        description text NOT NULL,
        prd_links json NOT NULL,
        images json NOT NULL,
        image_info json NOT NULL,
        runner text,
        branch text NOT NULL,
        state text NOT NULL,
        cancelled_from text,
        init json NOT NULL,
        workspaces json NOT NULL,
        commit_message text,
        mr_title text,
        mr_description text,
        results json,
        prd_link_errors json,
        review json,
        merge_requests json,
        baseline json,
        error text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX ON ${t.tasks} (created_at, id);
      CREATE INDEX ON ${t.tasks} (project_id, created_at, id);
      CREATE TABLE ${t.taskSessions} (
        task_id text COLLATE "C" NOT NULL REFERENCES ${t.tasks} (id) ON DELETE CASCADE,
        stage text NOT NULL,
        session_id text NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (task_id, stage)
      );
      CREATE TABLE ${t.todos} (
        id text COLLATE "C" PRIMARY KEY,
        task_id text COLLATE "C" NOT NULL REFERENCES ${t.tasks} (id) ON DELETE CASCADE,
        position integer NOT NULL,
        title text NOT NULL,
        description text NOT NULL,
        expected_output text NOT NULL,
        status text NOT NULL,
        session_id text,
        "before" json,
        "after" json,
        checks json,
        check_runs json,
        origin json,
        error text,
        error_code text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX ON ${t.todos} (task_id, position);
      CREATE INDEX ON ${t.todos} (status);
      CREATE TABLE ${t.planVersions} (
        task_id text COLLATE "C" NOT NULL REFERENCES ${t.tasks} (id) ON DELETE CASCADE,
        version integer NOT NULL,
        content text NOT NULL,
        source text NOT NULL,
        session_id text,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (task_id, version)
      );
      CREATE TABLE ${t.skills} (
        id text COLLATE "C" PRIMARY KEY,
        name text COLLATE "C" NOT NULL UNIQUE,
        description text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE TABLE ${t.skillLinks} (
        skill_id text COLLATE "C" NOT NULL REFERENCES ${t.skills} (id) ON DELETE CASCADE,
        project_id text COLLATE "C" NOT NULL REFERENCES ${t.projects} (id) ON DELETE CASCADE,
        PRIMARY KEY (skill_id, project_id)
      );
      CREATE INDEX ON ${t.skillLinks} (project_id);
      CREATE TABLE ${t.conversations} (
        id text COLLATE "C" PRIMARY KEY,
        title text NOT NULL,
        project_id text COLLATE "C" REFERENCES ${t.projects} (id) ON DELETE SET NULL,
        session_id text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX ON ${t.conversations} (created_at, id);
      CREATE INDEX ON ${t.conversations} (project_id);
    `,
  },
];

/**
 * Brings the workbench's tables up to date (../migration-runner.ts: safe when several processes start at
 * once, and taking turns with the run store migrating the same schema).
 */
export async function migrateWorkbench(pool: pg.Pool, schema: string): Promise<void> {
  const tables = workbenchTables(schema);
  await runMigrations(pool, schema, { tables, versionTable: tables.migrations, migrations });
}

/** The versions this code knows, newest last (the migration test compares the applied ones with them). */
export const workbenchVersions: readonly number[] = migrations.map((migration) => migration.version);
