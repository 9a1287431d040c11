import { AgentLimitReachedError, InvalidStateError, RunNotFoundError } from '../../errors/index.ts';
import type {
  Claim,
  NewRun,
  OrphanClaim,
  Run,
  RunQuery,
  RunStatus,
  RunTransition,
  RunUsage,
} from '../contract.ts';
import { finishedStatuses, runStatuses } from '../contract.ts';
import { immediate, type SqliteContext, stamp, wrongState } from './context.ts';
import { type Row, toJson, toJsonOrNull, toRun } from './rows.ts';

// The run record on SQLite: its lifecycle and leases.

export function createRun(ctx: SqliteContext, input: NewRun): Run {
  const limit = input.agent_limit;
  if (limit === undefined || !input.agent) return insertRun(ctx, input);
  // Counted and inserted under the write lock: two processes spawning at once cannot both pass the limit.
  return immediate(ctx, () => {
    const { active } = ctx.sql.countActiveAgents.get() as { active: number };
    if (active >= limit) throw new AgentLimitReachedError(limit, active);
    return insertRun(ctx, input);
  });
}

function insertRun(ctx: SqliteContext, input: NewRun): Run {
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
    parent_run_id: input.parent_run_id ?? null,
    agent_id: input.agent?.agent_id ?? null,
    agent: toJsonOrNull(input.agent),
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
    parent_run_id: query.parent_run_id ?? null,
    agent_id: query.agent_id ?? null,
    active_agents: query.active_agents ? 1 : 0,
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
  // A result it set is not read back (statements.ts): the record carries the one it was given.
  if (row) return change.result === undefined ? toRun(row) : { ...toRun(row), result: change.result };
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

export function claimOrphan(ctx: SqliteContext, claim: Claim): OrphanClaim | null {
  return immediate(ctx, () => {
    const { now } = lease(ctx, claim);
    const orphan = ctx.sql.findOrphan.get({ now }) as { id: string; lease_owner: string | null } | undefined;
    if (!orphan) return null;
    const row = ctx.sql.takeOrphan.get({ id: orphan.id, ...lease(ctx, claim) }) as Row | undefined;
    return row ? { run: toRun(row), lost_owner: orphan.lease_owner } : null;
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

/** RUN_NOT_FOUND for an unknown run, else INVALID_STATE: `what` applies only to a run that has not ended. */
export function notWhileEnded(ctx: SqliteContext, runId: string, what: string): InvalidStateError {
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
