import { AgentLimitReachedError, RunNotFoundError } from '@keel/runtime/errors';
import { newId } from '@keel/runtime/store';
import type {
  Claim,
  NewRun,
  OrphanClaim,
  Run,
  RunQuery,
  RunStatus,
  RunTransition,
} from '@keel/runtime/store/contract';
import { finishedStatuses } from '@keel/runtime/store/contract';
import { limitOf } from './approval-queries.ts';
import type { Database } from './database.ts';
import { channel, json, toStoreError } from './database.ts';
import type { RunRow } from './rows.ts';
import { toRun } from './rows.ts';
import { leaseNotHeld, wrongRunState } from './run-state.ts';

// Runs and their leases. Every status change notifies in the same statement: the NOTIFY is delivered at
// commit, so a subscriber woken by it always reads the new state.

const notified = (update: string) =>
  `WITH changed AS (${update} RETURNING *) SELECT changed.*, pg_notify('${channel}', changed.id) FROM changed`;

const insertRun = (runs: string) => `INSERT INTO ${runs}
    (id, status, session_id, workdir, prompt, workflow, input, forked_from, parent_run_id, agent_id, agent,
     started_at, ended_at)
  VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8::jsonb, $10, $11, $12::jsonb,
    CASE WHEN $2 = 'running' THEN now() END, CASE WHEN $2 = ANY($9::text[]) THEN now() END)
  RETURNING *`;

// The second half of the advisory lock that makes "count the active sub-agents, then insert" one step.
const agentLimitLock = 0x61676e74; // 'agnt'

export async function createRun(db: Database, input: NewRun): Promise<Run> {
  const status = input.status ?? 'queued';
  const values = [
    newId('run'),
    status,
    input.session_id,
    input.workdir,
    input.prompt,
    json(input.workflow),
    json(input.input),
    input.forked_from ? json(input.forked_from) : null,
    finishedStatuses,
    input.parent_run_id ?? null,
    input.agent?.agent_id ?? null,
    input.agent ? json(input.agent) : null,
  ];
  const limit = input.agent_limit;
  if (limit === undefined || !input.agent)
    return toRun((await db.row<RunRow>(insertRun(db.t.runs), values))!);
  // Processes spawning at once take turns (a transaction-scoped lock per schema), so none passes the limit.
  const client = await db.pool.connect().catch((error: unknown) => {
    throw toStoreError(error);
  });
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [agentLimitLock, db.t.schema]);
    const counted = await client.query<{ active: number }>(
      `SELECT count(*)::int AS active FROM ${db.t.runs}
       WHERE agent_id IS NOT NULL AND NOT (status = ANY($1::text[]))`,
      [finishedStatuses],
    );
    const active = counted.rows[0]?.active ?? 0;
    if (active >= limit) throw new AgentLimitReachedError(limit, active);
    const inserted = await client.query<RunRow>(insertRun(db.t.runs), values);
    await client.query('COMMIT');
    return toRun(inserted.rows[0]!);
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw toStoreError(error);
  } finally {
    client.release();
  }
}

export async function getRun(db: Database, id: string): Promise<Run> {
  const row = await db.row<RunRow>(`SELECT * FROM ${db.t.runs} WHERE id = $1`, [id]);
  if (!row) throw new RunNotFoundError(id);
  return toRun(row);
}

export async function listRuns(db: Database, query: RunQuery = {}): Promise<Run[]> {
  // `before` pages by the cursor run's insertion order; an id the store does not know pages by id.
  const rows = await db.rows<RunRow>(
    `SELECT r.* FROM ${db.t.runs} r LEFT JOIN ${db.t.runs} b ON b.id = $2
     WHERE ($1::text IS NULL OR r.status = $1)
       AND ($2::text IS NULL OR (b.ord IS NOT NULL AND r.ord < b.ord) OR (b.ord IS NULL AND r.id < $2))
       AND ($4::text IS NULL OR r.parent_run_id = $4)
       AND ($5::text IS NULL OR r.agent_id = $5)
       AND (NOT $6::boolean OR (r.agent_id IS NOT NULL AND NOT (r.status = ANY($7::text[]))))
     ORDER BY r.ord DESC LIMIT $3`,
    [
      query.status ?? null,
      query.before ?? null,
      limitOf(query.limit, 20),
      query.parent_run_id ?? null,
      query.agent_id ?? null,
      query.active_agents === true,
      finishedStatuses,
    ],
  );
  return rows.map(toRun);
}

export async function transition(db: Database, id: string, change: RunTransition): Promise<Run> {
  const releaseLease = change.releaseLease ?? change.to !== 'running';
  // A lost race (the state changed between the failed UPDATE and the diagnosis) is retried, not misreported.
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await db.row<RunRow>(
      notified(`UPDATE ${db.t.runs} SET
         status = $2,
         error = CASE WHEN $4::boolean THEN $5::jsonb ELSE error END,
         result = CASE WHEN $6::boolean THEN $7::jsonb ELSE result END,
         lease_owner = CASE WHEN $8::boolean THEN NULL ELSE lease_owner END,
         lease_expires_at = CASE WHEN $8::boolean THEN NULL ELSE lease_expires_at END,
         attempt = attempt + $9::integer,
         started_at = CASE WHEN $2 = 'running' THEN coalesce(started_at, now()) ELSE started_at END,
         ended_at = CASE WHEN $2 = ANY($10::text[]) THEN now() END,
         updated_at = now()
       WHERE id = $1 AND status = ANY($3::text[]) AND ($11::text IS NULL OR lease_owner = $11)`),
      [
        id,
        change.to,
        change.from,
        change.error !== undefined,
        change.error ? json(change.error) : null,
        change.result !== undefined,
        change.result === undefined || change.result === null ? null : json(change.result),
        releaseLease,
        change.nextAttempt ? 1 : 0,
        finishedStatuses,
        change.owner ?? null,
      ],
    );
    if (row) return toRun(row);
    const current = await getRun(db, id);
    if (!change.from.includes(current.status)) throw wrongRunState(id, current.status, change.from);
    if (change.owner !== undefined && current.lease_owner !== change.owner) {
      throw leaseNotHeld(current, { from: change.from, to: change.to, owner: change.owner });
    }
  }
  throw wrongRunState(id, (await getRun(db, id)).status, change.from);
}

export async function addUsage(
  db: Database,
  id: string,
  usage: { input_tokens: number; output_tokens: number; total_tokens: number },
  costUsd: number,
): Promise<void> {
  const row = await db.row(
    `UPDATE ${db.t.runs} SET input_tokens = input_tokens + $2, output_tokens = output_tokens + $3,
       total_tokens = total_tokens + $4, cost_usd = cost_usd + $5, updated_at = now()
     WHERE id = $1 RETURNING id`,
    [id, usage.input_tokens, usage.output_tokens, usage.total_tokens, costUsd],
  );
  if (!row) throw new RunNotFoundError(id);
}

// Leases are computed with the database's clock, so workers on machines whose clocks differ still agree.
const claimSet = (owner: string, leaseMs: string) => `status = 'running', lease_owner = ${owner},
  lease_expires_at = now() + ${leaseMs}::double precision * interval '1 millisecond',
  started_at = coalesce(started_at, now()), ended_at = NULL, updated_at = now()`;

export async function claimRun(
  db: Database,
  id: string,
  claim: Claim & { from?: readonly RunStatus[] },
): Promise<Run | null> {
  const row = await db.row<RunRow>(
    notified(`UPDATE ${db.t.runs} SET ${claimSet('$2', '$3')}
      WHERE id = $1 AND status = ANY($4::text[])
        AND (status <> 'running' OR lease_expires_at IS NULL OR lease_expires_at <= now())`),
    [id, claim.owner, claim.leaseMs, claim.from ?? ['queued']],
  );
  if (row) return toRun(row);
  await getRun(db, id); // unknown id: RunNotFoundError rather than a silent null
  return null;
}

/** SKIP LOCKED lets concurrent workers each take a different run instead of queueing behind one row lock. */
export async function claimNext(db: Database, claim: Claim): Promise<Run | null> {
  const row = await db.row<RunRow>(
    `WITH next AS (
       SELECT id FROM ${db.t.runs} WHERE status = 'queued' ORDER BY ord LIMIT 1 FOR UPDATE SKIP LOCKED
     ), changed AS (
       UPDATE ${db.t.runs} r SET ${claimSet('$1', '$2')} FROM next WHERE r.id = next.id RETURNING r.*
     )
     SELECT changed.*, pg_notify('${channel}', changed.id) FROM changed`,
    [claim.owner, claim.leaseMs],
  );
  return row ? toRun(row) : null;
}

/**
 * Takes over the oldest running run whose lease ran out. SKIP LOCKED plus the lease check in the UPDATE
 * (re-read after any row lock) make it one worker's: a second worker finds the lease renewed and skips it.
 */
export async function claimOrphan(db: Database, claim: Claim): Promise<OrphanClaim | null> {
  const row = await db.row<RunRow & { lost_owner: string | null }>(
    `WITH orphan AS (
       SELECT id, lease_owner FROM ${db.t.runs}
       WHERE status = 'running' AND (lease_expires_at IS NULL OR lease_expires_at <= now())
       ORDER BY ord LIMIT 1 FOR UPDATE SKIP LOCKED
     )
     UPDATE ${db.t.runs} r
     SET lease_owner = $1, lease_expires_at = now() + $2::double precision * interval '1 millisecond',
         updated_at = now()
     FROM orphan
     WHERE r.id = orphan.id AND r.status = 'running'
       AND (r.lease_expires_at IS NULL OR r.lease_expires_at <= now())
     RETURNING r.*, orphan.lease_owner AS lost_owner`,
    [claim.owner, claim.leaseMs],
  );
  return row ? { run: toRun(row), lost_owner: row.lost_owner } : null;
}

export async function renewLease(db: Database, id: string, claim: Claim): Promise<boolean> {
  const row = await db.row(
    `UPDATE ${db.t.runs}
     SET lease_expires_at = now() + $3::double precision * interval '1 millisecond', updated_at = now()
     WHERE id = $1 AND status = 'running' AND lease_owner = $2 RETURNING id`,
    [id, claim.owner, claim.leaseMs],
  );
  return row !== undefined;
}
