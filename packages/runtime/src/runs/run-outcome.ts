import { BudgetExceededError, CancelledError, KeelError } from '../errors/index.ts';
import type { JsonValue, Run, RunStore } from '../store/index.ts';
import { type SchedulerState, SuspendRun, type Workflow } from '../workflow/index.ts';
import type { Execution } from './execution.ts';
import { assembleResult } from './result.ts';

/** How an execution ended: the run as stored afterwards, and the error when it failed or was cancelled. */
export interface ExecutionOutcome {
  run: Run;
  error?: KeelError;
}

/**
 * The workflow ran to its end: announces the result with `done`, takes a last checkpoint and stores the
 * result with the `succeeded` transition (guarded: it needs the lease). `before` is the state of the
 * checkpoint the execution started from, so only what this execution spent is added to the run's usage.
 */
export async function finishSucceeded(
  execution: Execution,
  workflow: Workflow,
  before: JsonValue | undefined,
): Promise<ExecutionOutcome> {
  const { run, store, state, owner } = execution;
  const result = assembleResult(workflow, state, execution.setup.sessionId);
  await execution.emit({
    type: 'done',
    output: result.output,
    thinking: result.thinking,
    tool_traces: result.tool_traces,
    usage: result.usage,
    metadata: result.metadata,
  });
  await execution.checkpointer.saveIgnoringPause(null);
  await addUsage(store, run.id, state, before);
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
  before: JsonValue | undefined,
): Promise<ExecutionOutcome> {
  const { run, store, state, owner, supervisor } = execution;
  if (supervisor.leaseLost) {
    return { run: await store.getRun(run.id), error: new CancelledError('Lease lost.') };
  }
  await addUsage(store, run.id, state, before).catch(() => undefined);
  if (thrown instanceof SuspendRun) {
    const suspended = await store.transition(run.id, { from: ['running'], to: thrown.reason, owner });
    return { run: thrown.reason === 'waiting' ? await requeueIfDecided(store, suspended) : suspended };
  }
  const { signal } = supervisor;
  const reason = signal.aborted ? (signal.reason as unknown) : undefined;
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
 * An approval decided while the run was still on its way to `waiting` found it `running` and could not
 * queue it; so once waiting, a run with nothing pending goes straight back to the queue.
 */
async function requeueIfDecided(store: RunStore, run: Run): Promise<Run> {
  const pending = await store.listApprovals({ run_id: run.id, status: 'pending', limit: 1 });
  if (pending.length > 0) return run;
  return store.transition(run.id, { from: ['waiting'], to: 'queued' }).catch(() => store.getRun(run.id));
}

/** Adds what this execution spent to the run's usage columns (metrics read them). */
async function addUsage(
  store: RunStore,
  runId: string,
  state: SchedulerState,
  before: JsonValue | undefined,
): Promise<void> {
  const previous = (before as unknown as SchedulerState | undefined)?.usage ?? {
    input_tokens: 0,
    output_tokens: 0,
  };
  const input = state.usage.input_tokens - previous.input_tokens;
  const output = state.usage.output_tokens - previous.output_tokens;
  const cost = state.cost_usd - ((before as unknown as SchedulerState | undefined)?.cost_usd ?? 0);
  if (input === 0 && output === 0 && cost === 0) return;
  await store.addUsage(
    runId,
    { input_tokens: input, output_tokens: output, total_tokens: input + output },
    cost,
  );
}
