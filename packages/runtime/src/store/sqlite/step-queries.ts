import type { ErrorObject } from '../../errors/index.ts';
import {
  InvalidParamsError,
  InvalidStateError,
  RecordNotFoundError,
  RunNotFoundError,
} from '../../errors/index.ts';
import type { Checkpoint, JsonObject, NewCheckpoint, NewStep, Step, StepStatus } from '../contract.ts';
import { immediate, type SqliteContext, stamp } from './context.ts';
import { checkpointWith, type Row, toCheckpoint, toJson, toJsonOrNull, toStep } from './rows.ts';

// A run's steps and checkpoints. Inserts select from `runs`, so the run's existence is checked by the
// statement that writes.

export function startStep(ctx: SqliteContext, input: NewStep): Step {
  const { now, id } = stamp(ctx, 'stp');
  const row = ctx.sql.insertStep.get({
    id,
    run_id: input.run_id,
    node_id: input.node_id,
    kind: input.kind,
    attempt: input.attempt ?? null,
    worker_id: input.worker_id ?? null,
    detail: toJson(input.detail ?? {}),
    now,
  }) as Row | undefined;
  if (!row) throw new RunNotFoundError(input.run_id);
  return toStep(row);
}

export function finishStep(
  ctx: SqliteContext,
  id: string,
  outcome: { status: Exclude<StepStatus, 'running'>; error?: ErrorObject | null; detail?: JsonObject },
): Step {
  return immediate(ctx, () => finishStepIn(ctx, id, outcome));
}

/** finishStep inside a transaction the caller holds. */
function finishStepIn(
  ctx: SqliteContext,
  id: string,
  outcome: { status: Exclude<StepStatus, 'running'>; error?: ErrorObject | null; detail?: JsonObject },
): Step {
  const found = ctx.sql.getStep.get({ id }) as Row | undefined;
  // The spec has no STEP_NOT_FOUND code; a step id only comes from the caller's own startStep.
  if (!found) throw new InvalidParamsError(`Step '${id}' does not exist.`, { step_id: id });
  const step = toStep(found);
  if (step.status !== 'running' && step.status !== 'waiting') {
    throw new InvalidStateError(
      `Step '${id}' is ${step.status}; only a running or waiting step can be finished.`,
      {
        step_id: id,
        status: step.status,
        allowed: ['running', 'waiting'],
      },
    );
  }
  const row = ctx.sql.finishStep.get({
    id,
    status: outcome.status,
    error: toJsonOrNull(outcome.error),
    detail: toJson({ ...step.detail, ...outcome.detail }),
    now: ctx.now().toISOString(),
  }) as Row;
  return toStep(row);
}

export function listSteps(ctx: SqliteContext, runId: string): Step[] {
  return (ctx.sql.listSteps.all({ run_id: runId }) as Row[]).map(toStep);
}

export function saveCheckpoint(ctx: SqliteContext, input: NewCheckpoint): Checkpoint {
  const insert = () => {
    const { now, id } = stamp(ctx, 'chk');
    const row = ctx.sql.insertCheckpoint.get({
      id,
      run_id: input.run_id,
      step_id: input.step_id,
      state: toJson(input.state),
      whole: input.whole ? 1 : 0,
      now,
    }) as Row | undefined;
    if (!row) throw new RunNotFoundError(input.run_id);
    // The record carries the state it was given, not a copy read back and parsed: a whole checkpoint holds
    // every tool output of the run, and each copy of it (megabytes) lasted in the old generation until
    // the next full GC (issue #44).
    return checkpointWith(row, input.state);
  };
  if (!input.finishStep || input.step_id === null) return insert();
  // The step's end and its checkpoint in one transaction: stored together or not at all, one commit less.
  const stepId = input.step_id;
  return immediate(ctx, () => {
    finishStepIn(ctx, stepId, { status: 'succeeded' });
    return insert();
  });
}

export function getCheckpoint(ctx: SqliteContext, id: string): Checkpoint {
  const row = ctx.sql.getCheckpoint.get({ id }) as Row | undefined;
  if (!row) throw new RecordNotFoundError('CHECKPOINT_NOT_FOUND', 'Checkpoint', id);
  return toCheckpoint(row);
}

export function latestCheckpoint(ctx: SqliteContext, runId: string): Checkpoint | null {
  const row = ctx.sql.latestCheckpoint.get({ run_id: runId }) as Row | undefined;
  return row ? toCheckpoint(row) : null;
}

export function listCheckpoints(ctx: SqliteContext, runId: string): Checkpoint[] {
  return (ctx.sql.listCheckpoints.all({ run_id: runId }) as Row[]).map(toCheckpoint);
}

export function checkpointChain(ctx: SqliteContext, runId: string, upTo?: string): Checkpoint[] {
  let last = upTo;
  if (last === undefined) {
    last = (ctx.sql.latestCheckpoint.get({ run_id: runId }) as Row | undefined)?.id as string | undefined;
    if (last === undefined) return [];
  } else {
    const found = ctx.sql.getCheckpoint.get({ id: last }) as Row | undefined;
    if (found?.run_id !== runId) throw new RecordNotFoundError('CHECKPOINT_NOT_FOUND', 'Checkpoint', last);
  }
  return (ctx.sql.checkpointChain.all({ run_id: runId, upto: last }) as Row[]).map(toCheckpoint);
}
