// The runtime's own SQLite schema.
// Each entry moves the schema one version up; PRAGMA user_version records where a database stands.
// Append only: a released entry never changes (exported for the migration tests).
export const migrations: string[] = [
  `CREATE TABLE sessions (
     id TEXT PRIMARY KEY,
     title TEXT NOT NULL,
     model TEXT NOT NULL DEFAULT '',
     workdir TEXT NOT NULL DEFAULT '',
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX sessions_updated ON sessions (updated_at DESC);
   CREATE TABLE session_messages (
     session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
     seq INTEGER NOT NULL,
     role TEXT NOT NULL,
     data TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (session_id, seq)
   );`,
  `CREATE TABLE runs (
     id TEXT PRIMARY KEY,
     status TEXT NOT NULL,
     session_id TEXT,
     workdir TEXT NOT NULL,
     prompt TEXT NOT NULL,
     error TEXT,
     result TEXT,
     last_seq INTEGER NOT NULL DEFAULT 0,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     ended_at TEXT,
     heartbeat_at TEXT
   );
   CREATE INDEX runs_created ON runs (created_at DESC);
   CREATE TABLE run_events (
     id TEXT PRIMARY KEY,
     run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
     seq INTEGER NOT NULL,
     type TEXT NOT NULL,
     data TEXT NOT NULL,
     created_at TEXT NOT NULL,
     UNIQUE (run_id, seq)
   );
   CREATE TABLE run_controls (
     id TEXT PRIMARY KEY,
     run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
     kind TEXT NOT NULL,
     created_at TEXT NOT NULL,
     handled_at TEXT
   );
   CREATE INDEX run_controls_pending ON run_controls (run_id) WHERE handled_at IS NULL;`,
  // The durable store contract (contract.ts): the full Run record, steps, checkpoints, approvals,
  // artifacts and the audit log. JSON fields are TEXT; runs made before it read as attempt 1, no usage.
  `ALTER TABLE runs ADD COLUMN workflow TEXT NOT NULL DEFAULT 'null';
   ALTER TABLE runs ADD COLUMN input TEXT NOT NULL DEFAULT '{}';
   ALTER TABLE runs ADD COLUMN attempt INTEGER NOT NULL DEFAULT 1;
   ALTER TABLE runs ADD COLUMN forked_from TEXT;
   ALTER TABLE runs ADD COLUMN lease_owner TEXT;
   ALTER TABLE runs ADD COLUMN lease_expires_at TEXT;
   ALTER TABLE runs ADD COLUMN input_tokens INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE runs ADD COLUMN output_tokens INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE runs ADD COLUMN total_tokens INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE runs ADD COLUMN cost_usd REAL NOT NULL DEFAULT 0;
   ALTER TABLE runs ADD COLUMN started_at TEXT;
   UPDATE runs SET started_at = created_at;
   CREATE INDEX runs_status ON runs (status, id);
   CREATE TABLE run_steps (
     id TEXT PRIMARY KEY,
     run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
     node_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     status TEXT NOT NULL,
     attempt INTEGER NOT NULL,
     detail TEXT NOT NULL,
     error TEXT,
     started_at TEXT NOT NULL,
     ended_at TEXT
   );
   CREATE INDEX run_steps_run ON run_steps (run_id, id);
   CREATE TABLE run_checkpoints (
     id TEXT PRIMARY KEY,
     run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
     step_id TEXT,
     seq INTEGER NOT NULL,
     state TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE INDEX run_checkpoints_run ON run_checkpoints (run_id, id);
   CREATE TABLE run_approvals (
     id TEXT PRIMARY KEY,
     run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
     step_id TEXT,
     node_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     prompt TEXT NOT NULL,
     options TEXT NOT NULL,
     detail TEXT NOT NULL,
     status TEXT NOT NULL,
     answer TEXT,
     decided_by TEXT,
     created_at TEXT NOT NULL,
     decided_at TEXT
   );
   CREATE INDEX run_approvals_run ON run_approvals (run_id, id);
   CREATE INDEX run_approvals_status ON run_approvals (status, id);
   CREATE TABLE run_artifacts (
     id TEXT PRIMARY KEY,
     run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
     step_id TEXT,
     node_id TEXT,
     name TEXT NOT NULL,
     kind TEXT NOT NULL,
     media_type TEXT NOT NULL,
     size INTEGER NOT NULL,
     sha256 TEXT NOT NULL,
     uri TEXT NOT NULL,
     metadata TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE INDEX run_artifacts_run ON run_artifacts (run_id, id);
   CREATE TABLE audit_log (
     id TEXT PRIMARY KEY,
     timestamp TEXT NOT NULL,
     event TEXT NOT NULL,
     tool_name TEXT,
     args_summary TEXT NOT NULL,
     result_summary TEXT NOT NULL,
     session_id TEXT,
     run_id TEXT,
     workdir TEXT NOT NULL,
     success INTEGER NOT NULL
   );
   CREATE INDEX audit_log_event ON audit_log (event, id);
   CREATE INDEX audit_log_run ON audit_log (run_id, id);
   CREATE INDEX audit_log_timestamp ON audit_log (timestamp);`,
  // Messages users send to running runs (WebSocket `user_input`, `keel runs input`).
  `CREATE TABLE run_inputs (
     id TEXT PRIMARY KEY,
     run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
     content TEXT NOT NULL,
     created_at TEXT NOT NULL,
     consumed_at TEXT
   );
   CREATE INDEX run_inputs_pending ON run_inputs (run_id, id) WHERE consumed_at IS NULL;`,
  // Projects and their development tasks (the web API's /api/projects and /api/tasks).
  `CREATE TABLE projects (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     description TEXT NOT NULL,
     workdir TEXT NOT NULL,
     code_paths TEXT NOT NULL,
     session_id TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE TABLE project_tasks (
     id TEXT PRIMARY KEY,
     project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
     name TEXT NOT NULL,
     branch_name TEXT NOT NULL,
     session_id TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX project_tasks_project ON project_tasks (project_id, id);`,
  // Sub-agents are child runs: the run that spawned one, and its agent fields (agents/). `agent_id` is
  // also a column so that a sub-agent's runs and the active ones are found by index.
  `ALTER TABLE runs ADD COLUMN parent_run_id TEXT;
   ALTER TABLE runs ADD COLUMN agent_id TEXT;
   ALTER TABLE runs ADD COLUMN agent TEXT;
   CREATE INDEX runs_parent ON runs (parent_run_id, id) WHERE parent_run_id IS NOT NULL;
   CREATE INDEX runs_agent ON runs (agent_id, id) WHERE agent_id IS NOT NULL;`,
  // Checkpoints that decode on their own: loading a run reads from the latest one (checkpointChain).
  `ALTER TABLE run_checkpoints ADD COLUMN whole INTEGER NOT NULL DEFAULT 0;
   CREATE INDEX run_checkpoints_whole ON run_checkpoints (run_id, id) WHERE whole = 1;`,
  // The worker that ran each step (`keel runs show`): null for steps recorded before.
  `ALTER TABLE run_steps ADD COLUMN worker_id TEXT;`,
  // Events in segments (event-queries.ts): the rows in append order (rid), each run's events found through
  // its segments. A segment is a run of consecutive events of one run; its key `seg` is the rid of its first
  // event, so the segments being written sit together at the end of the (seg, seq) index and a commit of
  // 100 runs' events writes a few of its pages, not one per run as (run_id, seq) did. Appends no longer
  // touch the run's row: `runs.last_seq` is left as it was, and a run's cursor is read from its newest
  // segment. Existing events are copied in (run_id, seq) order, one segment per run. No foreign key on the
  // hot table: appends check the run in the statement that reads its cursor, and runs are never deleted.
  `CREATE TABLE run_events_by_segment (
     rid INTEGER PRIMARY KEY,
     seg INTEGER NOT NULL,
     seq INTEGER NOT NULL,
     id TEXT NOT NULL,
     run_id TEXT NOT NULL,
     type TEXT NOT NULL,
     data TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   INSERT INTO run_events_by_segment (rid, seg, seq, id, run_id, type, data, created_at)
     SELECT row_number() OVER everything,
            row_number() OVER everything - row_number() OVER (PARTITION BY run_id ORDER BY seq) + 1,
            seq, id, run_id, type, data, created_at
     FROM run_events WINDOW everything AS (ORDER BY run_id, seq);
   DROP TABLE run_events;
   ALTER TABLE run_events_by_segment RENAME TO run_events;
   CREATE UNIQUE INDEX run_events_segment ON run_events (seg, seq);
   CREATE TABLE run_segments (
     run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
     first_seq INTEGER NOT NULL,
     seg INTEGER NOT NULL,
     PRIMARY KEY (run_id, first_seq)
   ) WITHOUT ROWID;
   INSERT INTO run_segments (run_id, first_seq, seg)
     SELECT run_id, seq, seg FROM run_events WHERE rid = seg;`,
];
