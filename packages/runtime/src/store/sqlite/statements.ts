import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { finishedStatuses } from '../contract.ts';
import { prepareStatement } from './prepare-statement.ts';

// Every statement the SQLite store runs, prepared once per connection: preparing is a large share of
// a small statement's cost, and appendEvent is the runtime's hot path.

const finished = finishedStatuses.map((status) => `'${status}'`).join(', ');

const sql = {
  begin: 'BEGIN IMMEDIATE',
  beginRead: 'BEGIN',
  commit: 'COMMIT',
  rollback: 'ROLLBACK',

  insertRun: `INSERT INTO runs (id, status, session_id, workdir, prompt, workflow, input, forked_from,
                parent_run_id, agent_id, agent, created_at, updated_at, started_at, ended_at)
              VALUES ($id, $status, $session_id, $workdir, $prompt, $workflow, $input, $forked_from,
                $parent_run_id, $agent_id, $agent, $now, $now, $started_at, $ended_at)
              RETURNING *`,
  getRun: 'SELECT * FROM runs WHERE id = $id',
  runExists: 'SELECT 1 AS found FROM runs WHERE id = $id',
  listRuns: `SELECT * FROM runs
             WHERE ($status IS NULL OR status = $status) AND ($before IS NULL OR id < $before)
               AND ($parent_run_id IS NULL OR parent_run_id = $parent_run_id)
               AND ($agent_id IS NULL OR agent_id = $agent_id)
               AND ($active_agents = 0 OR (agent_id IS NOT NULL AND status NOT IN (${finished})))
             ORDER BY id DESC LIMIT $limit`,
  // Sub-agent runs not yet ended: what the sub-agent limit counts.
  countActiveAgents: `SELECT count(*) AS active FROM runs
                      WHERE agent_id IS NOT NULL AND status NOT IN (${finished})`,
  // $from is a JSON array of statuses; the owner check applies only when an owner is given.
  transition: `UPDATE runs SET
                 status = $to,
                 error = CASE WHEN $set_error THEN $error ELSE error END,
                 result = CASE WHEN $set_result THEN $result ELSE result END,
                 lease_owner = CASE WHEN $release THEN NULL ELSE lease_owner END,
                 lease_expires_at = CASE WHEN $release THEN NULL ELSE lease_expires_at END,
                 attempt = attempt + $attempt_add,
                 started_at = CASE WHEN $to = 'running' THEN coalesce(started_at, $now) ELSE started_at END,
                 ended_at = CASE WHEN $to IN (${finished}) THEN $now ELSE NULL END,
                 updated_at = $now
               WHERE id = $id AND status IN (SELECT value FROM json_each($from))
                 AND ($owner IS NULL OR lease_owner = $owner)
               RETURNING *`,
  addUsage: `UPDATE runs SET input_tokens = input_tokens + $input_tokens,
               output_tokens = output_tokens + $output_tokens, total_tokens = total_tokens + $total_tokens,
               cost_usd = cost_usd + $cost_usd, updated_at = $now
             WHERE id = $id`,

  // A running run is claimable only once its lease ran out: that is how a crashed worker's run is recovered.
  claimRun: `UPDATE runs SET status = 'running', lease_owner = $owner, lease_expires_at = $expires,
               started_at = coalesce(started_at, $now), ended_at = NULL, updated_at = $now
             WHERE id = $id AND status IN (SELECT value FROM json_each($from))
               AND (status <> 'running' OR lease_expires_at < $now)
             RETURNING *`,
  claimNext: `UPDATE runs SET status = 'running', lease_owner = $owner, lease_expires_at = $expires,
                started_at = coalesce(started_at, $now), updated_at = $now
              WHERE id = (SELECT id FROM runs WHERE status = 'queued' ORDER BY id LIMIT 1)
              RETURNING *`,
  // The oldest running run whose lease ran out; read and taken over in one immediate transaction.
  findOrphan: `SELECT id, lease_owner FROM runs
               WHERE status = 'running' AND (lease_expires_at IS NULL OR lease_expires_at < $now)
               ORDER BY id LIMIT 1`,
  takeOrphan: `UPDATE runs SET lease_owner = $owner, lease_expires_at = $expires, updated_at = $now
               WHERE id = $id AND status = 'running'
                 AND (lease_expires_at IS NULL OR lease_expires_at < $now)
               RETURNING *`,
  // No updated_at: a renewal is not a change subscribers need to hear about.
  renewLease: `UPDATE runs SET lease_expires_at = $expires
               WHERE id = $id AND status = 'running' AND lease_owner = $owner`,

  // Reserves the sequence numbers of every run in a group commit at once: $counts is a JSON object
  // {run id: how many}. One statement per batch, not one per run: with 100 runs writing, a statement per
  // run cost more than all the batch's inserts (profiled). The plan reads $counts and finds each run by
  // its key; a run missing from what it returns does not exist. OR FAIL spares SQLite a statement journal
  // (a temporary file once the batch's runs fill 64 KiB of pages): the whole transaction is rolled back
  // on any failure anyway.
  bumpSeqs: `UPDATE OR FAIL runs SET last_seq = last_seq + counts.value, updated_at = $now
             FROM json_each($counts) AS counts WHERE runs.id = counts.key
             RETURNING runs.id AS id, runs.last_seq AS last_seq`,
  // Positional parameters: binding them costs half what named ones do, once per event.
  insertEvent: `INSERT INTO run_events (id, run_id, seq, type, data, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
  listEvents: `SELECT * FROM run_events WHERE run_id = $run_id AND seq > $after ORDER BY seq LIMIT $limit`,
  // Replays read only what they send: three columns cost a third of `SELECT *` per row.
  listEventTexts: `SELECT seq, type, data FROM run_events WHERE run_id = $run_id AND seq > $after
                   ORDER BY seq LIMIT $limit`,

  // Inserting through a SELECT on runs checks the run exists in the same statement: no row, no run.
  // The step's worker defaults to the run's lease holder: the worker executing it.
  insertStep: `INSERT INTO run_steps (id, run_id, node_id, kind, status, attempt, worker_id, detail, started_at)
               SELECT $id, id, $node_id, $kind, 'running', coalesce($attempt, attempt),
                      coalesce($worker_id, lease_owner), $detail, $now
               FROM runs WHERE id = $run_id
               RETURNING *`,
  getStep: 'SELECT * FROM run_steps WHERE id = $id',
  finishStep: `UPDATE run_steps SET status = $status, error = $error, detail = $detail,
                 ended_at = CASE WHEN $status = 'waiting' THEN NULL ELSE $now END
               WHERE id = $id
               RETURNING *`,
  listSteps: 'SELECT * FROM run_steps WHERE run_id = $run_id ORDER BY id',

  // The checkpoint's seq is the run's last_seq read by the same statement that inserts it.
  insertCheckpoint: `INSERT INTO run_checkpoints (id, run_id, step_id, seq, state, whole, created_at)
                     SELECT $id, id, $step_id, last_seq, $state, $whole, $now FROM runs WHERE id = $run_id
                     RETURNING *`,
  getCheckpoint: 'SELECT * FROM run_checkpoints WHERE id = $id',
  latestCheckpoint: 'SELECT * FROM run_checkpoints WHERE run_id = $run_id ORDER BY id DESC LIMIT 1',
  listCheckpoints: 'SELECT * FROM run_checkpoints WHERE run_id = $run_id ORDER BY id',
  // From the latest whole checkpoint at or before $upto ('' when there is none) to $upto.
  checkpointChain: `SELECT * FROM run_checkpoints
                    WHERE run_id = $run_id AND id <= $upto
                      AND id >= coalesce((SELECT max(id) FROM run_checkpoints
                                          WHERE run_id = $run_id AND whole = 1 AND id <= $upto), '')
                    ORDER BY id`,

  insertApproval: `INSERT INTO run_approvals (id, run_id, step_id, node_id, kind, prompt, options, detail,
                     status, created_at)
                   SELECT $id, id, $step_id, $node_id, $kind, $prompt, $options, $detail, 'pending', $now
                   FROM runs WHERE id = $run_id
                   RETURNING *`,
  getApproval: 'SELECT * FROM run_approvals WHERE id = $id',
  listApprovals: `SELECT * FROM run_approvals
                  WHERE ($run_id IS NULL OR run_id = $run_id) AND ($status IS NULL OR status = $status)
                  ORDER BY id DESC LIMIT $limit`,
  decideApproval: `UPDATE run_approvals SET status = $status, answer = $answer, decided_by = $decided_by,
                     decided_at = $now
                   WHERE id = $id AND status = 'pending'
                   RETURNING *`,

  insertControl: `INSERT INTO run_controls (id, run_id, kind, created_at)
                  SELECT $id, id, $kind, $now FROM runs WHERE id = $run_id AND status NOT IN (${finished})
                  RETURNING id`,
  takeControls: `UPDATE run_controls SET handled_at = $now WHERE run_id = $run_id AND handled_at IS NULL
                 RETURNING id, kind`,

  insertInput: `INSERT INTO run_inputs (id, run_id, content, created_at)
                SELECT $id, id, $content, $now FROM runs WHERE id = $run_id AND status NOT IN (${finished})
                RETURNING *`,
  pendingInputs: 'SELECT * FROM run_inputs WHERE run_id = $run_id AND consumed_at IS NULL ORDER BY id',
  consumeInputs: `UPDATE run_inputs SET consumed_at = $now
                  WHERE run_id = $run_id AND consumed_at IS NULL AND id IN (SELECT value FROM json_each($ids))`,

  insertArtifact: `INSERT INTO run_artifacts (id, run_id, step_id, node_id, name, kind, media_type, size,
                     sha256, uri, metadata, created_at)
                   SELECT $id, id, $step_id, $node_id, $name, $kind, $media_type, $size, $sha256, $uri,
                     $metadata, $now
                   FROM runs WHERE id = $run_id
                   RETURNING *`,
  getArtifact: 'SELECT * FROM run_artifacts WHERE id = $id',
  listArtifacts: 'SELECT * FROM run_artifacts WHERE run_id = $run_id ORDER BY id',

  insertAudit: `INSERT INTO audit_log (id, timestamp, event, tool_name, args_summary, result_summary,
                  session_id, run_id, workdir, success)
                VALUES ($id, $now, $event, $tool_name, $args_summary, $result_summary, $session_id, $run_id,
                  $workdir, $success)
                RETURNING *`,
  listAudit: `SELECT * FROM audit_log
              WHERE ($event IS NULL OR event = $event) AND ($run_id IS NULL OR run_id = $run_id)
                AND ($since IS NULL OR timestamp >= $since)
              ORDER BY id DESC LIMIT $limit`,
  countAudit: `SELECT count(*) AS total FROM audit_log
               WHERE ($event IS NULL OR event = $event) AND ($run_id IS NULL OR run_id = $run_id)
                 AND ($since IS NULL OR timestamp >= $since)`,

  // What subscribers watch: $ids is a JSON array of run ids.
  watchRuns: `SELECT id, last_seq, status, updated_at FROM runs
              WHERE id IN (SELECT value FROM json_each($ids))`,
} as const;

export type Statements = { readonly [K in keyof typeof sql]: StatementSync };

export function prepareStatements(db: DatabaseSync): Statements {
  const prepared: Partial<Record<keyof typeof sql, StatementSync>> = {};
  for (const key of Object.keys(sql) as (keyof typeof sql)[]) prepared[key] = prepareStatement(db, sql[key]);
  return prepared as Statements;
}
