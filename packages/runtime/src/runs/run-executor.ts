import {
  type AgentState,
  type BreakerLimits,
  checkBreaker,
  executeAgent,
  loopError,
  newAgentState,
} from '../agent/index.ts';
import {
  BudgetExceededError,
  CancelledError,
  CircuitBreakerError,
  KeelError,
  toErrorObject,
} from '../errors/index.ts';
import type { EventBody, RuntimeEvent } from '../events/index.ts';
import { costOf } from '../model/index.ts';
import {
  type Approval,
  type BlobStore,
  type JsonObject,
  type JsonValue,
  newId,
  type Run,
  type RunStore,
} from '../store/index.ts';
import { FileHistory, TodoList, type ToolContext } from '../tools/index.ts';
import {
  type NodeState,
  newSchedulerState,
  parseWorkflow,
  Scheduler,
  type SchedulerHooks,
  type SchedulerState,
  SuspendRun,
  type WorkflowNode,
} from '../workflow/index.ts';
import { toolAuditor } from './audit.ts';
import { CheckpointCodec, decodeCheckpoints } from './checkpoint-codec.ts';
import { assembleResult } from './result.ts';
import type { RunEnvironment } from './run-environment.ts';

export interface ExecutionDeps {
  store: RunStore;
  blobs: BlobStore;
  /** This worker's lease owner id. */
  owner: string;
  leaseMs: number;
  env: RunEnvironment;
  /** Hands a stored event to listeners (the event manager, the caller). */
  deliver(event: RuntimeEvent): Promise<void>;
  signal?: AbortSignal;
  now?: () => number;
}

/** How an execution ended: the run as stored afterwards, and the error when it failed or was cancelled. */
export interface ExecutionOutcome {
  run: Run;
  error?: KeelError;
}

// How often the worker looks for control requests (cancel, pause) from other processes.
const controlPollMs = 200;

/**
 * Executes a run this worker has claimed, from its latest checkpoint (or the start), until it ends, waits
 * for a human or is paused. The store is the truth: every event is appended before it is delivered, every
 * step boundary is checkpointed, and the final status is a guarded transition that needs the lease.
 */
export async function executeRun(run: Run, deps: ExecutionDeps): Promise<ExecutionOutcome> {
  const { store, env, owner } = deps;
  const now = deps.now ?? Date.now;
  const workflow = parseWorkflow(run.workflow);
  const checkpoints = await store.listCheckpoints(run.id);
  const checkpoint = checkpoints.at(-1);
  const state: SchedulerState = decodeCheckpoints(checkpoints) ?? newSchedulerState();
  const codec = new CheckpointCodec();
  codec.remember(state);
  const startedAt = now();
  const elapsedBase = state.elapsed_ms;
  const limits = {
    ...env.limits,
    ...orderedBudgets(run.input as BudgetFields, workflow.budgets, env.limits),
  };
  const maxDurationMs = workflow.budgets?.max_duration_ms ?? env.maxDurationMs;

  // One signal reaches every node: the caller's, cancel requests from any process, the time budget and
  // a lost lease all abort it, with the reason saying which.
  const stop = new AbortController();
  const signal = deps.signal ? AbortSignal.any([deps.signal, stop.signal]) : stop.signal;
  let pauseRequested = false;
  let leaseLost = false;
  /** Acts on cancel and pause requests written by any process. */
  const takeControls = async () => {
    for (const kind of await store.takeControls(run.id)) {
      if (kind === 'cancel') stop.abort(new CancelledError());
      if (kind === 'pause') pauseRequested = true;
    }
  };
  let lastRenew = now();
  const beat = setInterval(() => {
    void (async () => {
      if (now() - lastRenew >= deps.leaseMs / 3) {
        lastRenew = now();
        if (!(await store.renewLease(run.id, { owner, leaseMs: deps.leaseMs }))) {
          leaseLost = true;
          stop.abort(new CancelledError('This worker lost the run’s lease to another worker.'));
          return;
        }
      }
      await takeControls();
    })().catch(() => undefined);
  }, controlPollMs);
  beat.unref();
  const remaining = maxDurationMs > 0 ? maxDurationMs - elapsedBase : 0;
  const timeBudget =
    maxDurationMs > 0
      ? setTimeout(
          () =>
            stop.abort(
              new BudgetExceededError(`Time budget exceeded: the run took more than ${maxDurationMs} ms.`, {
                budget: 'max_duration_ms',
                limit: maxDurationMs,
                used: elapsedBase + (now() - startedAt),
              }),
            ),
          Math.max(remaining, 0),
        )
      : undefined;

  const audit = toolAuditor(store, run);
  // One history for every tool call of this execution; it lives in memory only (not in checkpoints).
  const history = new FileHistory();
  const todos = new TodoList();
  const toolContext = (toolSignal: AbortSignal): ToolContext => ({
    workdir: env.workdir,
    guard: env.guard,
    signal: toolSignal,
    audit,
    commands: env.commands,
    sandbox: env.sandbox,
    history,
    todos,
  });
  const emit = async (body: EventBody) => {
    const event = { ...body, session_id: env.sessionId } as RuntimeEvent;
    await store.appendEvent(run.id, event as unknown as JsonObject & { type: string });
    await deps.deliver(event);
  };

  // User messages are marked consumed only once a checkpoint holds them: a crash before that shows them
  // to the model again after recover, never loses them.
  const markedInputs = new Set<string>();
  const checkpointNow = async (stepId: string | null) => {
    state.elapsed_ms = elapsedBase + (now() - startedAt);
    await store.saveCheckpoint({ run_id: run.id, step_id: stepId, state: codec.encode(state) });
    const unmarked = (state.user_inputs ?? []).filter((id) => !markedInputs.has(id));
    if (unmarked.length > 0) {
      await store.consumeUserInputs(run.id, unmarked);
      for (const id of unmarked) markedInputs.add(id);
    }
    // A pause asked for before this boundary stops the run here, however recently the beat looked.
    await takeControls();
    if (pauseRequested) throw new SuspendRun('paused');
  };

  const breakerState = () => ({
    tokens: state.usage.input_tokens + state.usage.output_tokens,
    costUsd: state.cost_usd,
    steps: state.tool_steps,
  });
  /** Announces a tripped circuit breaker with a `circuit_breaker` event, then throws its error. */
  const trip = async (error: CircuitBreakerError): Promise<never> => {
    const details = error.details as { reason: string; tokens_used: number; cost_usd: number };
    await emit({ type: 'circuit_breaker', ...details });
    throw error;
  };
  const spend = async (delta: { tokens: number; steps: number }, enforce: boolean) => {
    state.tool_steps += delta.steps;
    if (!enforce) return;
    try {
      checkBreaker(limits, breakerState());
    } catch (error) {
      if (error instanceof CircuitBreakerError) await trip(error);
      throw error;
    }
  };
  const loop = (similarity: number) => trip(loopError(limits, similarity, breakerState()));

  const hooks: SchedulerHooks = {
    input: run.input,
    emit,
    startStep: async (nodeId, kind, detail) =>
      (
        await store.startStep({
          run_id: run.id,
          node_id: nodeId,
          kind,
          attempt: run.attempt,
          detail: detail ?? {},
        })
      ).id,
    finishStep: async (stepId, status, extra) => {
      await store.finishStep(stepId, {
        status,
        ...(extra?.error ? { error: toErrorObject(extra.error) } : {}),
        ...(extra?.detail ? { detail: extra.detail } : {}),
      });
    },
    checkpoint: checkpointNow,
    runAgent: (node, nodeState, prompt, nodeSignal) =>
      runAgentNode(node, nodeState, prompt, nodeSignal, {
        ...deps,
        state,
        emit,
        spend,
        loop,
        limits,
        checkpointNow,
        run,
        toolContext,
      }),
    runTool: async (name, params, toolSignal) => {
      const result = await env.tools.execute(name, params, toolContext(toolSignal));
      state.tool_steps += 1;
      return result;
    },
    requestApproval: async (nodeId, stepId, prompt) => {
      const approval = await store.createApproval({
        run_id: run.id,
        step_id: stepId,
        node_id: nodeId,
        kind: 'node',
        prompt,
        options: ['approve', 'reject'],
      });
      await emit({
        type: 'interaction_request',
        request_id: approval.id,
        kind: 'approval',
        prompt,
        options: approval.options,
      });
      return approval.id;
    },
    approvalDecision: async (id) => {
      const approval = await store.getApproval(id);
      if (approval.status === 'pending') return null;
      return {
        approved: approval.status === 'approved' || approval.status === 'answered',
        reason: approval.answer,
      };
    },
    saveArtifact: async ({ nodeId, stepId, name, kind, data }) => {
      const id = newId('art');
      const stored = await deps.blobs.put(`${run.id}/${id}`, JSON.stringify(data, null, 2));
      await store.addArtifact({
        id,
        run_id: run.id,
        step_id: stepId,
        node_id: nodeId,
        name,
        kind,
        media_type: 'application/json',
        metadata: {},
        ...stored,
      });
    },
  };

  try {
    // Steps a dead worker left open will never finish: mark them so the timeline tells the truth.
    for (const step of await store.listSteps(run.id)) {
      if (step.status === 'running') await store.finishStep(step.id, { status: 'abandoned' });
    }
    if (run.last_seq === 0) await emit({ type: 'session_start' });
    await new Scheduler(state, hooks).execute(workflow.root, signal);
    const result = assembleResult(workflow, state, env.sessionId);
    await emit({
      type: 'done',
      output: result.output,
      thinking: result.thinking,
      tool_traces: result.tool_traces,
      usage: result.usage,
      metadata: result.metadata,
    });
    await checkpointNow(null).catch((error) => {
      if (!(error instanceof SuspendRun)) throw error;
    });
    await addUsage(store, run.id, state, checkpoint?.state);
    return {
      run: await store.transition(run.id, {
        from: ['running'],
        to: 'succeeded',
        owner,
        result: { ...result, run_id: run.id } as unknown as JsonValue,
      }),
    };
  } catch (thrown) {
    if (leaseLost) return { run: await store.getRun(run.id), error: new CancelledError('Lease lost.') };
    await addUsage(store, run.id, state, checkpoint?.state).catch(() => undefined);
    if (thrown instanceof SuspendRun) {
      const suspended = await store.transition(run.id, { from: ['running'], to: thrown.reason, owner });
      return { run: thrown.reason === 'waiting' ? await requeueIfDecided(store, suspended) : suspended };
    }
    const reason = signal.aborted ? (signal.reason as unknown) : undefined;
    if (reason instanceof BudgetExceededError) {
      await emit({
        type: 'circuit_breaker',
        reason: reason.message,
        tokens_used: state.usage.input_tokens + state.usage.output_tokens,
        cost_usd: state.cost_usd,
      });
      return fail(reason);
    }
    if (signal.aborted || (KeelError.is(thrown) && thrown.code === 'CANCELLED')) {
      await emit({ type: 'cancelled' });
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
    return fail(thrown);
  } finally {
    clearInterval(beat);
    if (timeBudget) clearTimeout(timeBudget);
  }

  async function fail(thrown: unknown): Promise<ExecutionOutcome> {
    const error = KeelError.is(thrown)
      ? thrown
      : new KeelError('SERVER_ERROR', (thrown as Error)?.message ?? String(thrown));
    await emit({ type: 'error', error: error.toJSON() });
    return {
      run: await store.transition(run.id, { from: ['running'], to: 'failed', owner, error: error.toJSON() }),
      error,
    };
  }
}

interface AgentNodeDeps extends ExecutionDeps {
  run: Run;
  /** The tool context of this run for a given cancellation signal. */
  toolContext(signal: AbortSignal): ToolContext;
  state: SchedulerState;
  emit(body: EventBody): Promise<void>;
  spend(delta: { tokens: number; steps: number }, enforce: boolean): Promise<void>;
  loop(similarity: number): Promise<never>;
  checkpointNow(stepId: string | null): Promise<void>;
  limits: BreakerLimits;
}

/** Runs one agent node from its saved conversation, wiring its step boundaries to the store. */
async function runAgentNode(
  node: Extract<WorkflowNode, { kind: 'agent' }>,
  nodeState: NodeState,
  prompt: string,
  signal: AbortSignal,
  deps: AgentNodeDeps,
): Promise<string> {
  const { env, store, run, state } = deps;
  const tools = env.tools.filter({
    ...(node.include_tools ? { include: node.include_tools } : {}),
    ...(node.exclude_tools ? { exclude: node.exclude_tools } : {}),
  });
  if (!nodeState.agent) {
    const user = env.userMessage(prompt, node.id);
    nodeState.agent = newAgentState([
      { role: 'system', content: env.systemPrompt(tools.names()) },
      ...env.history(),
      user,
    ]);
    env.appendToSession(user, node.id);
  }
  const agent: AgentState = nodeState.agent;
  // The run's usage grows by what each committed step spent, so a checkpoint never counts a turn twice.
  let counted = { ...agent.usage };

  /**
   * The decision on the human request the current tool call waits for; the first time, records the
   * request, announces it, checkpoints and suspends the run (which then holds no worker).
   */
  const waitForHuman = async (
    request: { kind: 'tool' | 'question'; prompt: string; options: string[]; detail: JsonObject },
    current: AgentState,
    stepId: string,
  ): Promise<Approval> => {
    const pending = current.pending!;
    if (pending.approval_id) {
      const approval = await store.getApproval(pending.approval_id);
      if (approval.status === 'pending') throw new SuspendRun('waiting');
      return approval;
    }
    const approval = await store.createApproval({
      run_id: run.id,
      step_id: stepId,
      node_id: node.id,
      ...request,
    });
    pending.approval_id = approval.id;
    await deps.emit({
      type: 'interaction_request',
      request_id: approval.id,
      kind: request.kind === 'tool' ? 'approval' : 'question',
      prompt: request.prompt,
      options: approval.options,
    });
    await store.finishStep(stepId, { status: 'waiting', detail: { approval_id: approval.id } });
    await deps.checkpointNow(stepId).catch((error) => {
      if (!(error instanceof SuspendRun)) throw error;
    });
    throw new SuspendRun('waiting');
  };

  return executeAgent(
    {
      client: env.client,
      tools,
      context: deps.toolContext(signal),
      loop:
        deps.limits.enabled && deps.limits.loop_detect_turns > 0
          ? { turns: deps.limits.loop_detect_turns, threshold: deps.limits.loop_similarity_threshold }
          : null,
      hooks: {
        emit: deps.emit,
        onMessage: (message) => env.appendToSession(message, node.id),
        startStep: async (kind, detail) =>
          (
            await store.startStep({
              run_id: run.id,
              node_id: node.id,
              kind,
              attempt: run.attempt,
              detail: detail as JsonObject,
            })
          ).id,
        commitStep: async (stepId, current) => {
          const spent = {
            input_tokens: current.usage.input_tokens - counted.input_tokens,
            output_tokens: current.usage.output_tokens - counted.output_tokens,
          };
          state.usage.input_tokens += spent.input_tokens;
          state.usage.output_tokens += spent.output_tokens;
          state.cost_usd += costOf(env.price, spent);
          counted = { ...current.usage };
          await store.finishStep(stepId, { status: 'succeeded' });
          await deps.checkpointNow(stepId);
        },
        failStep: async (stepId, error) => {
          const cancelled = KeelError.is(error) && error.code === 'CANCELLED';
          await store
            .finishStep(stepId, { status: cancelled ? 'cancelled' : 'failed', error: toErrorObject(error) })
            .catch(() => undefined);
        },
        spend: (delta, enforce) => deps.spend(delta, enforce),
        loop: (similarity) => deps.loop(similarity),
        takeUserInputs: async () => {
          const pending = await store.pendingUserInputs(run.id);
          // After the await: parallel agents each get a message once, and a checkpointed one never again.
          state.user_inputs ??= [];
          const shown = new Set(state.user_inputs);
          const fresh = pending.filter((input) => !shown.has(input.id));
          state.user_inputs.push(...fresh.map((input) => input.id));
          return fresh.map((input) => input.content);
        },
        needsApproval: (call) => env.needsApproval(call),
        approval: async (call, args, current, stepId) => {
          const approval = await waitForHuman(
            {
              kind: 'tool',
              prompt: `Allow ${call.name} ${truncateArgs(args)}?`,
              options: ['approve', 'reject'],
              detail: { tool_name: call.name, tool_call_id: call.id, args: args as JsonObject },
            },
            current,
            stepId,
          );
          return approval.status === 'rejected' || approval.status === 'cancelled'
            ? { status: 'rejected', reason: approval.answer }
            : { status: 'approved' };
        },
        ask: async (call, question, current, stepId) => {
          const approval = await waitForHuman(
            {
              kind: 'question',
              prompt: question.text,
              options: question.options ?? [],
              detail: { tool_call_id: call.id },
            },
            current,
            stepId,
          );
          if (approval.status === 'rejected' || approval.status === 'cancelled') {
            return `(no answer: the user declined${approval.answer ? `: ${approval.answer}` : ''})`;
          }
          return approval.answer ?? approval.status;
        },
      },
    },
    agent,
  );
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

function truncateArgs(args: Record<string, unknown>): string {
  const text = JSON.stringify(args);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
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

interface BudgetFields {
  max_steps?: number;
  max_tokens?: number;
  max_cost_usd?: number;
}

/**
 * The run's budgets in the spec's order (§8 rule 2: request fields override configuration for one run):
 * the request's own, then the workflow's, then configuration (`limits` holds request over configuration).
 * 0 means no limit.
 */
function orderedBudgets(
  request: BudgetFields,
  workflow: BudgetFields | undefined,
  limits: Required<BudgetFields>,
) {
  return {
    max_steps: request.max_steps ?? workflow?.max_steps ?? limits.max_steps,
    max_tokens: request.max_tokens ?? workflow?.max_tokens ?? limits.max_tokens,
    max_cost_usd: request.max_cost_usd ?? workflow?.max_cost_usd ?? limits.max_cost_usd,
  };
}
