import { RunNotFoundError } from '@keel/runtime/errors';
import { newId } from '@keel/runtime/store';
import type { Claim, NewRun, Run, RunQuery, RunStatus, RunTransition } from '@keel/runtime/store/contract';
import { finishedStatuses } from '@keel/runtime/store/contract';
import { limitOf } from './approval-queries.ts';
import type { Database } from './database.ts';
import { channel, json } from './database.ts';
import type { RunRow } from './rows.ts';
import { toRun } from './rows.ts';
import { leaseNotHeld, wrongRunState } from './run-state.ts';

// Runs and their leases. Every status change notifies in the same statement: the NOTIFY is delivered at
// commit, so a subscriber woken by it always reads the new state.

const notified = (update: string) =>
  `WITH changed AS (${update} RETURNING *) SELECT changed.*, pg_notify('${channel}', changed.id) FROM changed`;

export async function createRun(db: Database, input: NewRun): Promise<Run> {
  const status = input.status ?? 'queued';
  const row = await db.row<RunRow>(
    `INSERT INTO ${db.t.runs}
       (id, status, session_id, workdir, prompt, workflow, input, forked_from, started_at, ended_at)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8::jsonb,
       CASE WHEN $2 = 'running' THEN now() END, CASE WHEN $2 = ANY($9::text[]) THEN now() END)
     RETURNING *`,
    [
      newId('run'),
      status,
      input.session_id,
      input.workdir,
      input.prompt,
      json(input.workflow),
      json(input.input),
      input.forked_from ? json(input.forked_from) : null,
      finishedStatuses,
    ],
  );
  return toRun(row!);
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
     ORDER BY r.ord DESC LIMIT $3`,
    [query.status ?? null, query.before ?? null, limitOf(query.limit, 20)],
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

export async function renewLease(db: Database, id: string, claim: Claim): Promise<boolean> {
  const row = await db.row(
    `UPDATE ${db.t.runs}
     SET lease_expires_at = now() + $3::double precision * interval '1 millisecond', updated_at = now()
     WHERE id = $1 AND status = 'running' AND lease_owner = $2 RETURNING id`,
    [id, claim.owner, claim.leaseMs],
  );
  return row !== undefined;
}
