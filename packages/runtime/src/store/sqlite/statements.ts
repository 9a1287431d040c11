import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { finishedStatuses } from '../contract.ts';
import { prepareStatement } from './prepare-statement.ts';

// Every statement the SQLite store runs, prepared once per connection: preparing is a large share of
// a small statement's cost, and appendEvent is the runtime's hot path.

const finished = finishedStatuses.map((status) => `'${status}'`).join(', ');

// Appends do not rewrite the run's row (migrations.ts, entry 9): a run's cursor is its newest segment's
// last seq, and it was last updated by its own changes or its last event, whichever came later.
const newestSegment = `(SELECT s.seg FROM run_segments s WHERE s.run_id = runs.id
                        ORDER BY s.first_seq DESC LIMIT 1)`;
const runLastSeq = `coalesce((SELECT max(e.seq) FROM run_events e WHERE e.seg = ${newestSegment}), 0)`;
const runLastEventAt = `(SELECT e.created_at FROM run_events e WHERE e.seg = ${newestSegment}
                         ORDER BY e.seq DESC LIMIT 1)`;
/** The first seq of the run's segment holding `seq` (0 before any): a page of events starts there. */
const segmentHolding = (seq: string) =>
  `coalesce((SELECT first_seq FROM run_segments WHERE run_id = $run_id AND first_seq <= ${seq}
             ORDER BY first_seq DESC LIMIT 1), 0)`;
/** What a statement returning a run selects: its row, its cursor and its last event's time (rows.ts). */
const run = `*, ${runLastSeq} AS events_last_seq, ${runLastEventAt} AS events_updated_at`;
/**
 * `run` without a result the transition has just set ($set_result): the writer has it, and a result holds
 * every tool output of the run (megabytes, read back as a copy). The columns are those `toRun` reads.
 */
const runAfterTransition = `id, status, session_id, workdir, prompt, workflow, input, error, attempt, forked_from,
  lease_owner, lease_expires_at, input_tokens, output_tokens, total_tokens, cost_usd, parent_run_id, agent,
  created_at, updated_at, started_at, ended_at, CASE WHEN $set_result THEN NULL ELSE result END AS result,
  ${runLastSeq} AS events_last_seq, ${runLastEventAt} AS events_updated_at`;

const sql = {
  begin: 'BEGIN IMMEDIATE',
  beginRead: 'BEGIN',
  commit: 'COMMIT',
  rollback: 'ROLLBACK',

  insertRun: `INSERT INTO runs (id, status, session_id, workdir, prompt, workflow, input, forked_from,
                parent_run_id, agent_id, agent, created_at, updated_at, started_at, ended_at)
              VALUES ($id, $status, $session_id, $workdir, $prompt, $workflow, $input, $forked_from,
                $parent_run_id, $agent_id, $agent, $now, $now, $started_at, $ended_at)
              RETURNING ${run}`,
  getRun: `SELECT ${run} FROM runs WHERE id = $id`,
  runExists: 'SELECT 1 AS found FROM runs WHERE id = $id',
  listRuns: `SELECT ${run} FROM runs
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
               RETURNING ${runAfterTransition}`,
  addUsage: `UPDATE runs SET input_tokens = input_tokens + $input_tokens,
               output_tokens = output_tokens + $output_tokens, total_tokens = total_tokens + $total_tokens,
               cost_usd = cost_usd + $cost_usd, updated_at = $now
             WHERE id = $id`,

  // A running run is claimable only once its lease ran out: that is how a crashed worker's run is recovered.
  claimRun: `UPDATE runs SET status = 'running', lease_owner = $owner, lease_expires_at = $expires,
               started_at = coalesce(started_at, $now), ended_at = NULL, updated_at = $now
             WHERE id = $id AND status IN (SELECT value FROM json_each($from))
               AND (status <> 'running' OR lease_expires_at < $now)
             RETURNING ${run}`,
  claimNext: `UPDATE runs SET status = 'running', lease_owner = $owner, lease_expires_at = $expires,
                started_at = coalesce(started_at, $now), updated_at = $now
              WHERE id = (SELECT id FROM runs WHERE status = 'queued' ORDER BY id LIMIT 1)
              RETURNING ${run}`,
  // The oldest running run whose lease ran out; read and taken over in one immediate transaction.
  findOrphan: `SELECT id, lease_owner FROM runs
               WHERE status = 'running' AND (lease_expires_at IS NULL OR lease_expires_at < $now)
               ORDER BY id LIMIT 1`,
  takeOrphan: `UPDATE runs SET lease_owner = $owner, lease_expires_at = $expires, updated_at = $now
               WHERE id = $id AND status = 'running'
                 AND (lease_expires_at IS NULL OR lease_expires_at < $now)
               RETURNING ${run}`,
  // No updated_at: a renewal is not a change subscribers need to hear about.
  renewLease: `UPDATE runs SET lease_expires_at = $expires
               WHERE id = $id AND status = 'running' AND lease_owner = $owner`,

  // Where each run of a group commit stands, read under the write lock: $ids is a JSON array of run ids;
  // per existing run, its newest segment (null before its first event) and that segment's last seq, and
  // the last rid of the table. One statement per batch, not one per run: with 100 runs writing, a statement
  // per run cost more than all the batch's inserts (profiled). A run missing from the rows does not exist.
  eventCursors: `SELECT j.value AS id, c.seg AS seg,
                   coalesce((SELECT max(e.seq) FROM run_events e WHERE e.seg = c.seg), 0) AS last_seq,
                   (SELECT coalesce(max(rid), 0) FROM run_events) AS last_rid
                 FROM json_each($ids) AS j JOIN runs AS r ON r.id = j.value
                 LEFT JOIN run_segments AS c ON c.run_id = j.value
                   AND c.first_seq = (SELECT max(first_seq) FROM run_segments WHERE run_id = j.value)`,
  // Changes exactly when another connection committed: whether the cursors kept in memory still hold.
  dataVersion: 'PRAGMA data_version',
  // Positional parameters: binding them costs half what named ones do, once per event.
  insertEvent: `INSERT INTO run_events (rid, seg, seq, id, run_id, type, data, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  insertSegment: 'INSERT INTO run_segments (run_id, first_seq, seg) VALUES (?, ?, ?)',
  // A run's events after a cursor: from the segment holding seq $after + 1 on, each segment's events by
  // index, in segment order (no sort: the plan walks both keys in order).
  listEvents: `SELECT e.* FROM run_segments s JOIN run_events e ON e.seg = s.seg
               WHERE s.run_id = $run_id AND e.seq > $after
                 AND s.first_seq >= ${segmentHolding('$after + 1')}
               ORDER BY s.first_seq, e.seq LIMIT $limit`,
  // Replays read only what they send: three columns cost a third of `SELECT *` per row.
  listEventTexts: `SELECT e.seq, e.type, e.data FROM run_segments s JOIN run_events e ON e.seg = s.seg
                   WHERE s.run_id = $run_id AND e.seq > $after
                     AND s.first_seq >= ${segmentHolding('$after + 1')}
                   ORDER BY s.first_seq, e.seq LIMIT $limit`,

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

  // The checkpoint's seq is the run's cursor read by the same statement that inserts it. The state is not
  // returned: the writer has it.
  insertCheckpoint: `INSERT INTO run_checkpoints (id, run_id, step_id, seq, state, whole, created_at)
                     SELECT $id, id, $step_id, ${runLastSeq}, $state, $whole, $now
                     FROM runs WHERE id = $run_id
                     RETURNING id, run_id, step_id, seq, created_at`,
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
  watchRuns: `SELECT id, ${runLastSeq} AS last_seq, status, updated_at FROM runs
              WHERE id IN (SELECT value FROM json_each($ids))`,
} as const;

export type Statements = { readonly [K in keyof typeof sql]: StatementSync };

export function prepareStatements(db: DatabaseSync): Statements {
  const prepared: Partial<Record<keyof typeof sql, StatementSync>> = {};
  for (const key of Object.keys(sql) as (keyof typeof sql)[]) prepared[key] = prepareStatement(db, sql[key]);
  return prepared as Statements;
}
