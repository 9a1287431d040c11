import { TimeoutError } from '../errors/index.ts';
import type { EventBody, RuntimeEvent } from '../events/index.ts';
import type { BlobStore, JsonObject, Run, RunStore } from '../store/index.ts';
import { newSchedulerState, parseWorkflow, Scheduler, type SchedulerState } from '../workflow/index.ts';
import { loadCheckpointChain } from './checkpoint-chain.ts';
import { decodeCheckpoints } from './checkpoint-codec.ts';
import { Checkpointer } from './checkpointer.ts';
import type { Execution } from './execution.ts';
import { RunBudget, runLimits } from './run-budget.ts';
import { type ExecutionOutcome, finishStopped, finishSucceeded } from './run-outcome.ts';
import type { RunSetup } from './run-setup.ts';
import { RunSupervisor } from './run-supervisor.ts';
import { schedulerHooks } from './scheduler-hooks.ts';

export interface ExecutionDeps {
  store: RunStore;
  blobs: BlobStore;
  /** This worker's lease owner id. */
  owner: string;
  leaseMs: number;
  setup: RunSetup;
  /** Hands a stored event, with the seq the store gave it, to listeners (the event manager, the caller). */
  deliver(event: RuntimeEvent, seq: number): Promise<void>;
  signal?: AbortSignal;
  now?: () => number;
}

/**
 * Executes a run this worker has claimed, from its latest checkpoint (or the start), until it ends, waits
 * for a human or is paused. The store is the truth: every event is appended before it is delivered, every
 * step boundary is checkpointed, and the final status is a guarded transition that needs the lease.
 *
 * The pieces: RunSupervisor (lease, controls, time budget: one abort signal), Checkpointer (step
 * boundaries, pauses), RunBudget (circuit breaker), schedulerHooks and runAgentNode (the work, over the
 * store), finishSucceeded / finishStopped (the run's final state).
 */
export async function executeRun(run: Run, deps: ExecutionDeps): Promise<ExecutionOutcome> {
  const { store, setup } = deps;
  const workflow = parseWorkflow(run.workflow);
  // From the latest whole checkpoint on: a resume reads about the state's size, not the run's history.
  const checkpoints = await loadCheckpointChain(store, run.id);
  // A fork starts from the state at its origin's checkpoint: its usage columns count only its own work.
  const inherited = run.forked_from
    ? (await store.getCheckpoint(run.forked_from.checkpoint_id)).state
    : undefined;
  const state: SchedulerState = decodeCheckpoints(checkpoints) ?? newSchedulerState();
  const emit = async (body: EventBody) => {
    const event = { ...body, session_id: setup.sessionId } as RuntimeEvent;
    const seq = await store.appendEvent(run.id, event as unknown as JsonObject & { type: string });
    await deps.deliver(event, seq);
  };
  const budget = new RunBudget(runLimits(run.input, workflow.budgets, setup.limits), state, emit);
  // Started last: from here on, the finally below is what stops its timers.
  const supervisor = new RunSupervisor({
    store,
    runId: run.id,
    owner: deps.owner,
    leaseMs: deps.leaseMs,
    maxDurationMs: workflow.budgets?.max_duration_ms ?? setup.maxDurationMs,
    elapsedBase: state.elapsed_ms,
    signal: deps.signal,
    deadline: subAgentDeadline(run),
    now: deps.now ?? Date.now,
  });
  const execution: Execution = {
    run,
    store,
    blobs: deps.blobs,
    owner: deps.owner,
    setup,
    state,
    supervisor,
    checkpointer: new Checkpointer(
      store,
      run.id,
      state,
      supervisor,
      checkpoints.map((checkpoint) => JSON.stringify(checkpoint.state).length),
    ),
    budget,
    emit,
    deliver: deps.deliver,
  };

  try {
    // Steps a dead worker left open will never finish: mark them so the timeline tells the truth.
    for (const step of await store.listSteps(run.id)) {
      if (step.status === 'running') await store.finishStep(step.id, { status: 'abandoned' });
    }
    if (run.last_seq === 0) await emit({ type: 'session_start' });
    await new Scheduler(state, schedulerHooks(execution)).execute(workflow.root, supervisor.signal);
    return await finishSucceeded(execution, workflow, inherited);
  } catch (thrown) {
    return await finishStopped(execution, thrown, inherited);
  } finally {
    supervisor.stop();
  }
}

/** A sub-agent's run stops with TIMEOUT at its deadline, counted in wall-clock time from its creation. */
function subAgentDeadline(run: Run): { at: number; error: () => TimeoutError } | undefined {
  const agent = run.agent;
  if (!agent) return undefined;
  return {
    at: Date.parse(agent.deadline_at),
    error: () =>
      new TimeoutError(`The sub-agent ran past its timeout of ${agent.timeout_seconds} s.`, {
        agent_id: agent.agent_id,
        timeout_seconds: agent.timeout_seconds,
      }),
  };
}
