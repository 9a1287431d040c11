import { ApprovalRejectedError, CancelledError, TimeoutError, toErrorObject } from '../errors/index.ts';
import type { JsonValue } from '../store/index.ts';
import type { WorkflowNode } from './definition.ts';
import { evaluate, outputText, render, renderDeep } from './expressions.ts';
import { runGate } from './gate.ts';
import { backoff, isRetryable } from './node-retry.ts';
import type { NodeScope } from './node-scope.ts';
import type { NodeOf, SchedulerHooks } from './scheduler-hooks.ts';
import { type NodeState, resetDescendants, resetSubtree, type SchedulerState } from './state.ts';
import { SuspendRun } from './suspend.ts';
import { runTaskGraph } from './task-graph.ts';

/**
 * Executes a workflow tree over a SchedulerState. Finished nodes are skipped with their saved output, so
 * running the same tree again over a checkpointed state continues where the run stopped.
 */
export class Scheduler {
  readonly #state: SchedulerState;
  readonly #hooks: SchedulerHooks;

  constructor(state: SchedulerState, hooks: SchedulerHooks) {
    this.#state = state;
    this.#hooks = hooks;
  }

  /** What the handlers in files of their own (gate, task graph) use of this scheduler. */
  get #scope(): NodeScope {
    return {
      state: this.#state,
      hooks: this.#hooks,
      execute: (node, signal) => this.execute(node, signal),
      resetSubtree: (node) => resetSubtree(this.#state, node),
    };
  }

  /** Runs `node` (and its subtree) to its output; throws SuspendRun to stop without failing. */
  async execute(node: WorkflowNode, signal: AbortSignal): Promise<JsonValue> {
    this.#state.nodes[node.id] ??= { status: 'running', attempts: 0 };
    const state = this.#state.nodes[node.id]!;
    if (state.status === 'succeeded') return state.output ?? null;
    if (state.status === 'skipped') return null;
    const maxAttempts = node.retry?.max_attempts ?? 1;
    if (state.status === 'failed' || state.attempts === 0) {
      state.status = 'running';
      state.attempts = Math.max(state.attempts, 1);
    }
    for (;;) {
      try {
        const output = await this.#attempt(node, state, signal);
        state.status = 'succeeded';
        state.output = output;
        delete state.error;
        // A finished agent needs its counters, not its conversation: keep checkpoints small.
        if (state.agent) state.agent.messages = [];
        return output;
      } catch (error) {
        if (!isRetryable(error, signal) || state.attempts >= maxAttempts) {
          if (!(error instanceof SuspendRun)) {
            state.status = 'failed';
            state.error = toErrorObject(error);
          }
          throw error;
        }
        await this.#hooks.emit({
          type: 'retry',
          attempt: state.attempts + 1,
          max_attempts: maxAttempts,
          error: `node '${node.id}': ${toErrorObject(error).message}`,
        });
        await backoff(node.retry?.backoff_ms ?? 0, state.attempts, signal);
        state.attempts += 1;
        delete state.agent;
        delete state.approval_id;
        delete state.branch;
        delete state.repairs;
        delete state.verdicts;
        delete state.tasks;
        resetDescendants(this.#state, node);
      }
    }
  }

  /** One attempt, bounded by the node's timeout. */
  async #attempt(node: WorkflowNode, state: NodeState, runSignal: AbortSignal): Promise<JsonValue> {
    if (runSignal.aborted) throw new CancelledError();
    if (!node.timeout_ms) return this.#run(node, state, runSignal);
    const timeout = new TimeoutError(`Node '${node.id}' timed out after ${node.timeout_ms} ms.`, {
      node_id: node.id,
      timeout_ms: node.timeout_ms,
    });
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(timeout), node.timeout_ms);
    const signal = AbortSignal.any([runSignal, controller.signal]);
    let onAbort: (() => void) | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      onAbort = () => reject(timeout);
      controller.signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([this.#run(node, state, signal), timedOut]);
    } catch (error) {
      throw controller.signal.aborted && !runSignal.aborted ? timeout : error;
    } finally {
      clearTimeout(timer);
      if (onAbort) controller.signal.removeEventListener('abort', onAbort);
    }
  }

  #run(node: WorkflowNode, state: NodeState, signal: AbortSignal): Promise<JsonValue> {
    switch (node.kind) {
      case 'agent':
        return this.#hooks.runAgent(node, state, render(node.prompt, this.#hooks.input, this.#state), signal);
      case 'tool':
        return this.#tool(node, signal);
      case 'approval':
        return this.#approval(node, state);
      case 'gate':
        return runGate(node, state, this.#scope, signal);
      case 'task_graph':
        return runTaskGraph(node, state, this.#scope, signal);
      case 'sequence':
        return this.#sequence(node, signal);
      case 'parallel':
        return this.#parallel(node, signal);
      case 'join':
        return Promise.resolve(this.#join(node));
      case 'condition':
        return this.#condition(node, state, signal);
      case 'fallback':
        return this.#fallback(node, state, signal);
      case 'workflow':
        return this.execute(node.workflow.root, signal);
    }
  }

  async #tool(node: NodeOf<'tool'>, signal: AbortSignal): Promise<JsonValue> {
    const params = renderDeep(node.params ?? {}, this.#hooks.input, this.#state);
    const stepId = await this.#hooks.startStep(node.id, 'tool', { tool: node.tool });
    try {
      const result = await this.#hooks.runTool(node.tool, params, signal);
      await this.#hooks.finishStep(stepId, 'succeeded');
      this.#state.nodes[node.id]!.output = result;
      this.#state.nodes[node.id]!.status = 'succeeded';
      await this.#hooks.checkpoint(stepId);
      return result;
    } catch (error) {
      await this.#hooks.finishStep(stepId, 'failed', { error });
      throw error;
    }
  }

  async #approval(node: NodeOf<'approval'>, state: NodeState): Promise<JsonValue> {
    if (state.approval_id) {
      const decision = await this.#hooks.approvalDecision(state.approval_id);
      if (decision === null) throw new SuspendRun('waiting');
      if (!decision.approved) {
        throw new ApprovalRejectedError(
          `Approval '${state.approval_id}' for node '${node.id}' was rejected${decision.reason ? `: ${decision.reason}` : '.'}`,
          { approval_id: state.approval_id, node_id: node.id },
        );
      }
      return 'approved';
    }
    const stepId = await this.#hooks.startStep(node.id, 'approval');
    const prompt = render(node.prompt, this.#hooks.input, this.#state);
    state.approval_id = await this.#hooks.requestApproval(node.id, stepId, prompt);
    await this.#hooks.finishStep(stepId, 'waiting', { detail: { approval_id: state.approval_id } });
    await this.#hooks.checkpoint(stepId);
    throw new SuspendRun('waiting');
  }

  async #sequence(node: NodeOf<'sequence'>, signal: AbortSignal): Promise<JsonValue> {
    let output: JsonValue = null;
    for (const step of node.steps) output = await this.execute(step, signal);
    return output;
  }

  /**
   * Runs every branch at once and waits for all of them, so that a branch that stops to wait for an
   * approval lets the others reach their own boundary first. The output is `{branch id: output}`.
   */
  async #parallel(node: NodeOf<'parallel'>, signal: AbortSignal): Promise<JsonValue> {
    const settled = await Promise.allSettled(node.branches.map((branch) => this.execute(branch, signal)));
    const failure = settled.find(
      (each): each is PromiseRejectedResult =>
        each.status === 'rejected' && !(each.reason instanceof SuspendRun),
    );
    if (failure) throw failure.reason;
    const suspended = settled.find((each) => each.status === 'rejected');
    if (suspended) throw (suspended as PromiseRejectedResult).reason;
    const output: Record<string, JsonValue> = {};
    node.branches.forEach((branch, index) => {
      output[branch.id] = (settled[index] as PromiseFulfilledResult<JsonValue>).value;
    });
    return output;
  }

  #join(node: NodeOf<'join'>): JsonValue {
    const outputs = node.from.map((id) => this.#state.nodes[id]?.output ?? null);
    if (node.mode === 'concat') return outputs.map(outputText).join('\n\n');
    return Object.fromEntries(node.from.map((id, index) => [id, outputs[index]!]));
  }

  async #condition(node: NodeOf<'condition'>, state: NodeState, signal: AbortSignal): Promise<JsonValue> {
    // Decided once and saved, so a resumed or retried run takes the same branch.
    state.branch ??= evaluate(node.if, this.#state) ? 'then' : 'else';
    const chosen = state.branch === 'then' ? node.then : node.else;
    const other = state.branch === 'then' ? node.else : node.then;
    if (other) this.#state.nodes[other.id] = { status: 'skipped', attempts: 0 };
    return chosen ? this.execute(chosen, signal) : null;
  }

  /** Tries each child in order until one succeeds. */
  async #fallback(node: NodeOf<'fallback'>, state: NodeState, signal: AbortSignal): Promise<JsonValue> {
    let last: unknown;
    for (let index = typeof state.branch === 'number' ? state.branch : 0; index < node.try.length; index++) {
      state.branch = index;
      try {
        return await this.execute(node.try[index]!, signal);
      } catch (error) {
        if (!isRetryable(error, signal)) throw error;
        last = error;
      }
    }
    throw last;
  }
}
