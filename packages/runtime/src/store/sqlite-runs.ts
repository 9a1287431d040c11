import { InvalidStateError, RunNotFoundError } from '../errors/index.ts';
import type {
  Claim,
  ControlKind,
  JsonObject,
  NewRun,
  Run,
  RunEventRecord,
  RunQuery,
  RunStatus,
  RunTransition,
  RunUsage,
  UserInput,
} from './contract.ts';
import { finishedStatuses, runStatuses } from './contract.ts';
import { newId } from './ids.ts';
import { immediate, type SqliteContext, stamp, wrongState } from './sqlite-context.ts';
import { type Row, toEventRecord, toJson, toJsonOrNull, toRun } from './sqlite-rows.ts';

// The run record's operations on SQLite: lifecycle, leases, events and control requests.

export function createRun(ctx: SqliteContext, input: NewRun): Run {
  const { now, id } = stamp(ctx, 'run');
  const status = input.status ?? 'queued';
  const row = ctx.sql.insertRun.get({
    id,
    status,
    session_id: input.session_id,
    workdir: input.workdir,
    prompt: input.prompt,
    workflow: toJson(input.workflow ?? null),
    input: toJson(input.input),
    forked_from: toJsonOrNull(input.forked_from),
    now,
    started_at: status === 'running' ? now : null,
    ended_at: finishedStatuses.includes(status) ? now : null,
  }) as Row;
  return toRun(row);
}

export function getRun(ctx: SqliteContext, id: string): Run {
  const row = ctx.sql.getRun.get({ id }) as Row | undefined;
  if (!row) throw new RunNotFoundError(id);
  return toRun(row);
}

export function listRuns(ctx: SqliteContext, query: RunQuery): Run[] {
  const rows = ctx.sql.listRuns.all({
    status: query.status ?? null,
    before: query.before ?? null,
    limit: query.limit ?? 20,
  }) as Row[];
  return rows.map(toRun);
}

export function transition(ctx: SqliteContext, id: string, change: RunTransition): Run {
  const release = change.releaseLease ?? change.to !== 'running';
  const row = ctx.sql.transition.get({
    id,
    to: change.to,
    from: JSON.stringify(change.from),
    owner: change.owner ?? null,
    set_error: change.error === undefined ? 0 : 1,
    error: toJsonOrNull(change.error),
    set_result: change.result === undefined ? 0 : 1,
    result: toJsonOrNull(change.result),
    release: release ? 1 : 0,
    attempt_add: change.nextAttempt ? 1 : 0,
    now: ctx.now().toISOString(),
  }) as Row | undefined;
  if (row) return toRun(row);
  // The guarded update changed nothing: say why.
  const run = getRun(ctx, id);
  if (change.owner !== undefined && change.from.includes(run.status)) {
    const holder = run.lease_owner ? `'${run.lease_owner}'` : 'no worker';
    throw new InvalidStateError(
      `Run '${id}' is held by ${holder}, not '${change.owner}'; only the lease holder may move it to ${change.to}.`,
      {
        run_id: id,
        status: run.status,
        allowed: [...change.from],
        owner: change.owner,
        lease_owner: run.lease_owner,
      },
    );
  }
  throw wrongState(run, change.from);
}

export function addUsage(ctx: SqliteContext, id: string, usage: RunUsage, costUsd: number): void {
  const { changes } = ctx.sql.addUsage.run({
    id,
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens,
    total_tokens: usage.total_tokens,
    cost_usd: costUsd,
    now: ctx.now().toISOString(),
  });
  if (changes === 0) throw new RunNotFoundError(id);
}

export function claimRun(
  ctx: SqliteContext,
  id: string,
  claim: Claim & { from?: readonly RunStatus[] },
): Run | null {
  return immediate(ctx, () => {
    const row = ctx.sql.claimRun.get({
      id,
      from: JSON.stringify(claim.from ?? ['queued']),
      ...lease(ctx, claim),
    }) as Row | undefined;
    if (row) return toRun(row);
    if (!ctx.sql.runExists.get({ id })) throw new RunNotFoundError(id);
    return null;
  });
}

export function claimNext(ctx: SqliteContext, claim: Claim): Run | null {
  return immediate(ctx, () => {
    const row = ctx.sql.claimNext.get(lease(ctx, claim)) as Row | undefined;
    return row ? toRun(row) : null;
  });
}

export function renewLease(ctx: SqliteContext, id: string, claim: Claim): boolean {
  const { owner, expires } = lease(ctx, claim);
  return ctx.sql.renewLease.run({ id, owner, expires }).changes > 0;
}

function lease(ctx: SqliteContext, claim: Claim): { owner: string; expires: string; now: string } {
  const now = ctx.now();
  return {
    owner: claim.owner,
    expires: new Date(now.getTime() + claim.leaseMs).toISOString(),
    now: now.toISOString(),
  };
}

export function appendEvent(ctx: SqliteContext, runId: string, event: JsonObject & { type: string }): number {
  const now = ctx.now();
  const timestamp = now.toISOString();
  const data = JSON.stringify(event);
  return immediate(ctx, () => {
    const row = ctx.sql.bumpSeq.get({ id: runId, now: timestamp }) as { last_seq: number } | undefined;
    if (!row) throw new RunNotFoundError(runId);
    ctx.sql.insertEvent.run({
      id: newId('evt', now.getTime()),
      run_id: runId,
      seq: row.last_seq,
      type: event.type,
      data,
      now: timestamp,
    });
    return row.last_seq;
  });
}

export function listEvents(
  ctx: SqliteContext,
  runId: string,
  options: { after?: number; limit?: number },
): RunEventRecord[] {
  const rows = ctx.sql.listEvents.all({
    run_id: runId,
    after: options.after ?? 0,
    limit: options.limit ?? 1000,
  }) as Row[];
  // Only an empty page needs the extra look-up that tells "caught up" from "no such run".
  if (rows.length === 0 && !ctx.sql.runExists.get({ id: runId })) throw new RunNotFoundError(runId);
  return rows.map(toEventRecord);
}

export function requestControl(ctx: SqliteContext, runId: string, kind: ControlKind): string {
  const { now, id } = stamp(ctx, 'ctl');
  // The insert selects the run only while it has not ended, so the check and the write are one step.
  if (ctx.sql.insertControl.get({ id, run_id: runId, kind, now })) return id;
  throw notWhileEnded(ctx, runId, kind);
}

export function addUserInput(ctx: SqliteContext, runId: string, content: string): UserInput {
  const { now, id } = stamp(ctx, 'inp');
  const row = ctx.sql.insertInput.get({ id, run_id: runId, content, now }) as UserInput | undefined;
  if (row) return row;
  throw notWhileEnded(ctx, runId, 'user input');
}

export function pendingUserInputs(ctx: SqliteContext, runId: string): UserInput[] {
  const rows = ctx.sql.pendingInputs.all({ run_id: runId }) as unknown as UserInput[];
  if (rows.length === 0) getRun(ctx, runId);
  return rows;
}

export function consumeUserInputs(ctx: SqliteContext, runId: string, ids: readonly string[]): void {
  if (ids.length === 0) return;
  ctx.sql.consumeInputs.run({ run_id: runId, ids: JSON.stringify(ids), now: ctx.now().toISOString() });
}

/** RUN_NOT_FOUND for an unknown run, else INVALID_STATE: `what` applies only to a run that has not ended. */
function notWhileEnded(ctx: SqliteContext, runId: string, what: string): InvalidStateError {
  const run = getRun(ctx, runId);
  return new InvalidStateError(
    `Run '${runId}' is ${run.status}; ${what} applies only to a run that has not ended.`,
    {
      run_id: runId,
      status: run.status,
      allowed: runStatuses.filter((status) => !finishedStatuses.includes(status)),
    },
  );
}

export function takeControls(ctx: SqliteContext, runId: string): ControlKind[] {
  const rows = ctx.sql.takeControls.all({ run_id: runId, now: ctx.now().toISOString() }) as {
    id: string;
    kind: ControlKind;
  }[];
  // RETURNING has no defined order; ids sort by time.
  return rows.sort((a, b) => (a.id < b.id ? -1 : 1)).map((row) => row.kind);
}
