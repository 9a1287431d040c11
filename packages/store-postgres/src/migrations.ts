import type pg from 'pg';
import type { Tables } from './database.ts';
import { tablesOf } from './database.ts';
import { type Migration, runMigrations } from './migration-runner.ts';

/**
 * Ordered, append-only: a released migration is never edited, a change is a new entry.
 * `ord` columns keep insertion order, which is the list order: ids sort by millisecond only, and two
 * records made in the same millisecond would otherwise list in random order.
 */
const migrations: Migration<Tables>[] = [
  {
    version: 1,
    sql: (t) => `
      CREATE TABLE ${t.runs} (
        ord bigserial NOT NULL UNIQUE,
        id text PRIMARY KEY,
        status text NOT NULL
          CHECK (status IN ('queued', 'running', 'waiting', 'paused', 'succeeded', 'failed', 'cancelled')),
        session_id text,
        workdir text NOT NULL,
        prompt text NOT NULL,
        workflow jsonb NOT NULL,
        input jsonb NOT NULL,
        result jsonb,
        error jsonb,
        last_seq integer NOT NULL DEFAULT 0,
        attempt integer NOT NULL DEFAULT 1,
        forked_from jsonb,
        lease_owner text,
        lease_expires_at timestamptz,
        input_tokens bigint NOT NULL DEFAULT 0,
        output_tokens bigint NOT NULL DEFAULT 0,
        total_tokens bigint NOT NULL DEFAULT 0,
        cost_usd double precision NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        ended_at timestamptz
      );
      CREATE INDEX ON ${t.runs} (ord) WHERE status = 'queued';
      CREATE INDEX ON ${t.runs} (status, ord);

      CREATE TABLE ${t.events} (
        run_id text NOT NULL REFERENCES ${t.runs} (id) ON DELETE CASCADE,
        seq integer NOT NULL,
        id text NOT NULL,
        type text NOT NULL,
        event jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (run_id, seq)
      );

      CREATE TABLE ${t.steps} (
        ord bigserial NOT NULL,
        id text PRIMARY KEY,
        run_id text NOT NULL REFERENCES ${t.runs} (id) ON DELETE CASCADE,
        node_id text NOT NULL,
        kind text NOT NULL,
        status text NOT NULL,
        attempt integer NOT NULL DEFAULT 1,
        detail jsonb NOT NULL DEFAULT '{}',
        error jsonb,
        started_at timestamptz NOT NULL DEFAULT now(),
        ended_at timestamptz
      );
      CREATE INDEX ON ${t.steps} (run_id, ord);

      CREATE TABLE ${t.checkpoints} (
        ord bigserial NOT NULL,
        id text PRIMARY KEY,
        run_id text NOT NULL REFERENCES ${t.runs} (id) ON DELETE CASCADE,
        step_id text,
        seq integer NOT NULL,
        state jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX ON ${t.checkpoints} (run_id, ord);

      CREATE TABLE ${t.approvals} (
        ord bigserial NOT NULL,
        id text PRIMARY KEY,
        run_id text NOT NULL REFERENCES ${t.runs} (id) ON DELETE CASCADE,
        step_id text,
        node_id text NOT NULL,
        kind text NOT NULL,
        prompt text NOT NULL,
        options jsonb NOT NULL,
        detail jsonb NOT NULL DEFAULT '{}',
        status text NOT NULL DEFAULT 'pending',
        answer text,
        decided_by text,
        created_at timestamptz NOT NULL DEFAULT now(),
        decided_at timestamptz
      );
      CREATE INDEX ON ${t.approvals} (run_id, ord);
      CREATE INDEX ON ${t.approvals} (status, ord);

      CREATE TABLE ${t.artifacts} (
        ord bigserial NOT NULL,
        id text PRIMARY KEY,
        run_id text NOT NULL REFERENCES ${t.runs} (id) ON DELETE CASCADE,
        step_id text,
        node_id text,
        name text NOT NULL,
        kind text NOT NULL,
        media_type text NOT NULL,
        size bigint NOT NULL,
        sha256 text NOT NULL,
        uri text NOT NULL,
        metadata jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX ON ${t.artifacts} (run_id, ord);

      CREATE TABLE ${t.controls} (
        ord bigserial NOT NULL,
        id text PRIMARY KEY,
        run_id text NOT NULL REFERENCES ${t.runs} (id) ON DELETE CASCADE,
        kind text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        handled_at timestamptz
      );
      CREATE INDEX ON ${t.controls} (run_id, ord) WHERE handled_at IS NULL;

      CREATE TABLE ${t.audit} (
        ord bigserial NOT NULL,
        id text PRIMARY KEY,
        timestamp timestamptz NOT NULL DEFAULT now(),
        event text NOT NULL,
        tool_name text,
        args_summary text NOT NULL,
        result_summary text NOT NULL,
        session_id text,
        run_id text,
        workdir text NOT NULL,
        success boolean NOT NULL
      );
      CREATE INDEX ON ${t.audit} (ord);
      CREATE INDEX ON ${t.audit} (event, ord);
      CREATE INDEX ON ${t.audit} (run_id, ord);
    `,
  },
  {
    // Messages users send to running runs (WebSocket `user_input`, `keel runs input`).
    version: 2,
    sql: (t) => `
      CREATE TABLE ${t.inputs} (
        ord bigserial NOT NULL,
        id text PRIMARY KEY,
        run_id text NOT NULL REFERENCES ${t.runs} (id) ON DELETE CASCADE,
        content text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        consumed_at timestamptz
      );
      CREATE INDEX ON ${t.inputs} (run_id, ord) WHERE consumed_at IS NULL;
    `,
  },
  {
    // Projects and their development tasks (the web API's /api/projects and /api/tasks).
    version: 3,
    sql: (t) => `
      CREATE TABLE ${t.schema}.projects (
        ord bigserial NOT NULL UNIQUE,
        id text PRIMARY KEY,
        name text NOT NULL,
        description text NOT NULL,
        workdir text NOT NULL,
        code_paths jsonb NOT NULL,
        session_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE ${t.schema}.project_tasks (
        ord bigserial NOT NULL UNIQUE,
        id text PRIMARY KEY,
        project_id text NOT NULL REFERENCES ${t.schema}.projects (id) ON DELETE CASCADE,
        name text NOT NULL,
        branch_name text NOT NULL,
        session_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX ON ${t.schema}.project_tasks (project_id, ord);
    `,
  },
  {
    // Sub-agents are child runs: the run that spawned one, and its agent fields (runtime agents/).
    version: 4,
    sql: (t) => `
      ALTER TABLE ${t.runs} ADD COLUMN parent_run_id text, ADD COLUMN agent_id text, ADD COLUMN agent jsonb;
      CREATE INDEX ON ${t.runs} (parent_run_id, ord) WHERE parent_run_id IS NOT NULL;
      CREATE INDEX ON ${t.runs} (agent_id, ord) WHERE agent_id IS NOT NULL;
    `,
  },
  {
    // Checkpoints that decode on their own: loading a run reads from the latest one (checkpointChain).
    version: 5,
    sql: (t) => `
      ALTER TABLE ${t.checkpoints} ADD COLUMN whole boolean NOT NULL DEFAULT false;
      CREATE INDEX ON ${t.checkpoints} (run_id, ord) WHERE whole;
    `,
  },
  {
    // The worker that ran each step (`keel runs show`): null for steps recorded before.
    version: 6,
    sql: (t) => `ALTER TABLE ${t.steps} ADD COLUMN worker_id text;`,
  },
];

/**
 * Brings the schema up to date (migration-runner.ts: safe when several processes start at once). The
 * applied versions are listed in `schema_migrations`.
 */
export async function migrate(pool: pg.Pool, schema: string): Promise<void> {
  const tables = tablesOf(schema);
  await runMigrations(pool, schema, {
    tables,
    versionTable: `${tables.schema}.schema_migrations`,
    migrations,
  });
}
