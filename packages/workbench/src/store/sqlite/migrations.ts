// Each entry moves the schema one version up; PRAGMA user_version records where a database stands.
// Append only: a released entry never changes. JSON fields are TEXT.
export const migrations: string[] = [
  `CREATE TABLE settings (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     data TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE TABLE projects (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     description TEXT NOT NULL,
     repositories TEXT NOT NULL,
     default_runner TEXT,
     status TEXT NOT NULL,
     error TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE TABLE knowledge (
     project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
     repository TEXT NOT NULL,
     layer TEXT NOT NULL,
     status TEXT NOT NULL,
     error TEXT,
     session_id TEXT,
     updated_at TEXT NOT NULL,
     PRIMARY KEY (project_id, repository, layer)
   );
   CREATE TABLE sessions (
     id TEXT PRIMARY KEY,
     kind TEXT NOT NULL,
     owner_id TEXT,
     status TEXT NOT NULL,
     runner TEXT,
     runner_config_id TEXT,
     runner_session_id TEXT,
     run_id TEXT,
     context TEXT NOT NULL,
     error TEXT,
     usage TEXT,
     last_seq INTEGER NOT NULL DEFAULT 0,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     ended_at TEXT
   );
   CREATE INDEX sessions_owner ON sessions (owner_id);
   CREATE TABLE tasks (
     id TEXT PRIMARY KEY,
     project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
     description TEXT NOT NULL,
     prd_links TEXT NOT NULL,
     images TEXT NOT NULL,
     runner TEXT,
     branch TEXT NOT NULL,
     state TEXT NOT NULL,
     cancelled_from TEXT,
     init TEXT NOT NULL,
     workspaces TEXT NOT NULL,
     plan_session_id TEXT,
     review_session_id TEXT,
     init_session_id TEXT,
     commit_message TEXT,
     results TEXT,
     error TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX tasks_project ON tasks (project_id);
   CREATE TABLE todos (
     id TEXT PRIMARY KEY,
     task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
     position INTEGER NOT NULL,
     title TEXT NOT NULL,
     description TEXT NOT NULL,
     expected_output TEXT NOT NULL,
     status TEXT NOT NULL,
     session_id TEXT,
     before TEXT,
     after TEXT,
     error TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX todos_task ON todos (task_id, position);
   CREATE TABLE skills (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL UNIQUE,
     description TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE TABLE skill_links (
     skill_id TEXT NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
     project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
     PRIMARY KEY (skill_id, project_id)
   );
   CREATE TABLE conversations (
     id TEXT PRIMARY KEY,
     title TEXT NOT NULL,
     project_id TEXT REFERENCES projects (id) ON DELETE SET NULL,
     session_id TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );`,
  // A project's repositories' .runtime/config.json apply their security-relevant keys in its Keel runs.
  `ALTER TABLE projects ADD COLUMN trust_repository_config INTEGER NOT NULL DEFAULT 0;`,
  // Every plan.md a turn wrote or the user saved is a version; the MR's title and description as edited.
  `CREATE TABLE plan_versions (
     task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
     version INTEGER NOT NULL,
     content TEXT NOT NULL,
     source TEXT NOT NULL,
     session_id TEXT,
     created_at TEXT NOT NULL,
     PRIMARY KEY (task_id, version)
   );
   ALTER TABLE tasks ADD COLUMN mr_title TEXT;
   ALTER TABLE tasks ADD COLUMN mr_description TEXT;`,
  // The PRD links the first plan draft could not read, with why (shown on the task).
  `ALTER TABLE tasks ADD COLUMN prd_link_errors TEXT;`,
  // What lists show of a task's images (media type, file name, decoded size), so a list never reads them.
  `ALTER TABLE tasks ADD COLUMN image_info TEXT;
   UPDATE tasks SET image_info = (
     -- A merge patch with a null file name leaves the key out, as the service writes it.
     SELECT json_group_array(json_patch(
       json_object('media_type', json_extract(value, '$.media_type'), 'bytes', (length(data) * 3) / 4
         - (CASE WHEN data LIKE '%==' THEN 2 WHEN data LIKE '%=' THEN 1 ELSE 0 END)),
       json_object('filename', json_extract(value, '$.filename'))))
     FROM (SELECT value, json_extract(value, '$.data') AS data FROM json_each(tasks.images)));`,
  // Checks: the repair turns a project's todos get, and each todo's check results.
  `ALTER TABLE projects ADD COLUMN repair_turns INTEGER NOT NULL DEFAULT 2;
   ALTER TABLE todos ADD COLUMN checks TEXT;`,
  // Review and follow-up: the reviewer's findings, the followed merge requests, where a todo came from, and
  // the runner a project's reviewer uses (null: the task's).
  `ALTER TABLE tasks ADD COLUMN review TEXT;
   ALTER TABLE tasks ADD COLUMN merge_requests TEXT;
   ALTER TABLE todos ADD COLUMN origin TEXT;
   ALTER TABLE projects ADD COLUMN review_runner TEXT;`,
  // A task's session of each stage is a (task, stage) → session row, so that a stage module keeps its own
  // session without a column of its own (issue #24); the per-stage columns' values move there, and the
  // columns go (the task answer's plan_session_id, review_session_id and init_session_id are read from it).
  `CREATE TABLE task_sessions (
     task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
     stage TEXT NOT NULL,
     session_id TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (task_id, stage)
   );
   INSERT INTO task_sessions (task_id, stage, session_id, created_at)
     SELECT id, 'init', init_session_id, updated_at FROM tasks WHERE init_session_id IS NOT NULL
     UNION ALL
     SELECT id, 'plan', plan_session_id, updated_at FROM tasks WHERE plan_session_id IS NOT NULL
     UNION ALL
     SELECT id, 'review', review_session_id, updated_at FROM tasks WHERE review_session_id IS NOT NULL;
   ALTER TABLE tasks DROP COLUMN init_session_id;
   ALTER TABLE tasks DROP COLUMN plan_session_id;
   ALTER TABLE tasks DROP COLUMN review_session_id;`,
  // Issue #37: the checks' baseline on a task's workspace, and a failed todo's error code (an environment
  // problem is not the change's fault).
  `ALTER TABLE tasks ADD COLUMN baseline TEXT;
   ALTER TABLE todos ADD COLUMN error_code TEXT;`,
  // Issue #37: whether a project's task initialisation runs its repositories' setup (install) commands.
  `ALTER TABLE projects ADD COLUMN run_setup INTEGER NOT NULL DEFAULT 0;`,
  // Issue #38: every run of a todo's checks (a repair's failure stays readable after the rerun passed).
  `ALTER TABLE todos ADD COLUMN check_runs TEXT;`,
];
