import { BudgetExceededError, CancelledError, KeelError, TimeoutError } from '../errors/index.ts';
import type { JsonValue, Run, RunStore } from '../store/index.ts';
import { type SchedulerState, SuspendRun, type Workflow } from '../workflow/index.ts';
import { announceOnce } from './announce-once.ts';
import type { Execution } from './execution.ts';
import { assembleResult } from './result.ts';

/** How an execution ended: the run as stored afterwards, and the error when it failed or was cancelled. */
export interface ExecutionOutcome {
  run: Run;
  error?: KeelError;
}

/**
 * The workflow ran to its end: announces the result with `done`, takes a last checkpoint and stores the
 * result with the `succeeded` transition (guarded: it needs the lease). `inherited` is the state a fork
 * started from (see recordUsage).
 */
export async function finishSucceeded(
  execution: Execution,
  workflow: Workflow,
  inherited: JsonValue | undefined,
): Promise<ExecutionOutcome> {
  const { run, store, state, owner } = execution;
  const result = assembleResult(workflow, state, execution.setup.sessionId);
  // Once: a worker that died after storing `done`, before recording the end, announced it already.
  await announceOnce(execution, {
    type: 'done',
    output: result.output,
    thinking: result.thinking,
    tool_traces: result.tool_traces,
    usage: result.usage,
    metadata: result.metadata,
  });
  await execution.checkpointer.saveIgnoringPause(null);
  await recordUsage(store, run.id, state, inherited);
  return {
    run: await store.transition(run.id, {
      from: ['running'],
      to: 'succeeded',
      owner,
      result: { ...result, run_id: run.id } as unknown as JsonValue,
    }),
  };
}

/**
 * The execution stopped before the end: what stopped it decides the run's state. A lost lease leaves the
 * run to its new worker; a suspension makes it `waiting` or `paused`; the time budget, a cancellation or
 * an error end it.
 */
export async function finishStopped(
  execution: Execution,
  thrown: unknown,
  inherited: JsonValue | undefined,
): Promise<ExecutionOutcome> {
  const { run, store, state, owner, supervisor } = execution;
  if (supervisor.leaseLost) {
    return { run: await store.getRun(run.id), error: new CancelledError('Lease lost.') };
  }
  await recordUsage(store, run.id, state, inherited).catch(() => undefined);
  if (thrown instanceof SuspendRun) {
    const suspended = await store.transition(run.id, { from: ['running'], to: thrown.reason, owner });
    return {
      run: thrown.reason === 'waiting' ? await requeueIfDecided(store, suspended, thrown.ready) : suspended,
    };
  }
  const { signal } = supervisor;
  const reason = signal.aborted ? (signal.reason as unknown) : undefined;
  // A sub-agent past its deadline: the run fails with TIMEOUT (its agent's status becomes `timeout`).
  if (reason instanceof TimeoutError) return fail(execution, reason);
  if (reason instanceof BudgetExceededError) {
    await execution.emit({
      type: 'circuit_breaker',
      reason: reason.message,
      tokens_used: state.usage.input_tokens + state.usage.output_tokens,
      cost_usd: state.cost_usd,
    });
    return fail(execution, reason);
  }
  if (signal.aborted || (KeelError.is(thrown) && thrown.code === 'CANCELLED')) {
    await execution.emit({ type: 'cancelled' });
    const error = KeelError.is(thrown) && thrown.code === 'CANCELLED' ? thrown : new CancelledError();
    return {
      run: await store.transition(run.id, {
        from: ['running'],
        to: 'cancelled',
        owner,
        error: error.toJSON(),
      }),
      error,
    };
  }
  return fail(execution, thrown);
}

/** Ends the run `failed` with the error (a raw one becomes a SERVER_ERROR), announced by an `error` event. */
async function fail(execution: Execution, thrown: unknown): Promise<ExecutionOutcome> {
  const { run, store, owner } = execution;
  const error = KeelError.is(thrown)
    ? thrown
    : new KeelError('SERVER_ERROR', (thrown as Error)?.message ?? String(thrown));
  await execution.emit({ type: 'error', error: error.toJSON() });
  return {
    run: await store.transition(run.id, { from: ['running'], to: 'failed', owner, error: error.toJSON() }),
    error,
  };
}

/**
 * An approval decided (or a sub-agent finished) while the run was still on its way to `waiting` found it
 * `running` and could not queue it; so once waiting, a run with nothing pending goes straight back to the
 * queue. `ready` says whether a wait on something other than approvals is over.
 */
async function requeueIfDecided(
  store: RunStore,
  run: Run,
  ready: (() => Promise<boolean>) | undefined,
): Promise<Run> {
  const pending = await store.listApprovals({ run_id: run.id, status: 'pending', limit: 1 });
  if (pending.length > 0) return run;
  if (ready && !(await ready().catch(() => false))) return run;
  return store.transition(run.id, { from: ['waiting'], to: 'queued' }).catch(() => store.getRun(run.id));
}

/**
 * Brings the run's usage columns (metrics read them) to what its checkpointed state has spent, less what a
 * fork `inherited` with its first checkpoint. Only the worker holding the lease writes them. Adding what
 * one execution spent since the checkpoint it started from lost the spend of a worker that died: the next
 * one started from a checkpoint that already held it (docs/reliability.md).
 */
async function recordUsage(
  store: RunStore,
  runId: string,
  state: SchedulerState,
  inherited: JsonValue | undefined,
): Promise<void> {
  const base = inherited as unknown as SchedulerState | undefined;
  const recorded = await store.getRun(runId);
  const input = state.usage.input_tokens - (base?.usage.input_tokens ?? 0) - recorded.usage.input_tokens;
  const output = state.usage.output_tokens - (base?.usage.output_tokens ?? 0) - recorded.usage.output_tokens;
  const cost = state.cost_usd - (base?.cost_usd ?? 0) - recorded.cost_usd;
  // Costs are sums of floats: a difference below a millionth of a cent is rounding, not spend.
  if (input === 0 && output === 0 && Math.abs(cost) < 1e-8) return;
  await store.addUsage(
    runId,
    { input_tokens: input, output_tokens: output, total_tokens: input + output },
    cost,
  );
}
