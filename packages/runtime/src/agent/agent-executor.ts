import type { ContextBudget } from '../context/index.ts';
import { CancelledError, KeelError } from '../errors/index.ts';
import type { EventBody } from '../events/index.ts';
import type { ChatMessage, ModelClient, ModelTool, ToolCall, TurnResult } from '../model/index.ts';
import { questionSchema, type ToolContext, type ToolRegistry } from '../tools/index.ts';
import type { AgentState } from './agent-state.ts';
import { contextOverflow, rememberWindow, withLearnedWindow } from './context-overflow.ts';
import { keepContextInBudget } from './context-step.ts';
import { detectLoop, type LoopLimits } from './loop-detector.ts';
import { ToolRunner } from './tool-runner.ts';

/** A decision on a tool call that policy says needs a human's approval. */
export type ToolApproval =
  | { status: 'approved' }
  | { status: 'rejected'; reason?: string | null }
  /** Nobody decided within the interaction timeout: the call is not run either. */
  | { status: 'expired'; reason: string };

/** Why a tool call needs a human's approval: a policy naming the tool, or the tool's own reason. */
export interface ApprovalNeed {
  /** The tool's reason (`Tool.approvalReason`), shown with the request; absent for a policy by name. */
  why?: string;
}

/** How the agent reaches the scheduler: events, steps with checkpoints, budgets, approvals. */
export interface AgentHooks {
  /** Receives each event in order; awaited, so a slow consumer slows the run instead of losing events. */
  emit(event: EventBody): Promise<void>;
  /** Receives each message the run adds to the conversation, as soon as it is complete. */
  onMessage(message: ChatMessage): void;
  /** Opens a step (a model turn, a tool batch, or pruning or compacting the context); returns its id. */
  startStep(kind: 'model_turn' | 'tool_batch' | 'context', detail: Record<string, unknown>): Promise<string>;
  /** Closes the step and checkpoints the agent's state with it. */
  commitStep(stepId: string, state: AgentState): Promise<void>;
  /** Closes a step that failed or was cancelled (no checkpoint: a retry starts from the last one). */
  failStep(stepId: string, error: unknown): Promise<void>;
  /**
   * Counts spent tokens and tool-call steps against the run's budgets; when `enforce` is set, throws
   * once a budget is exceeded (a final answer is never thrown away for its own tokens).
   */
  spend(delta: { tokens: number; steps: number }, enforce: boolean): Promise<void>;
  /** Messages users sent to the run since the last turn, each handed out once; shown to the model next. */
  takeUserInputs(): Promise<string[]>;
  /** Trips the circuit breaker for a detected loop: announces it and throws. */
  loop(similarity: number): Promise<never>;
  /** Whether this tool call needs a human's approval first, and why; null when it can run. */
  needsApproval(call: ToolCall, args: Record<string, unknown>): Promise<ApprovalNeed | null>;
  /**
   * Asks the user the `question` tool's question: returns the answer when there is one; otherwise records
   * it (its id in `state.pending.approval_id`), checkpoints and throws to suspend the run, as `approval`.
   */
  ask(
    call: ToolCall,
    question: { text: string; options?: string[] | undefined },
    state: AgentState,
    stepId: string,
  ): Promise<string>;
  /**
   * Asks for (or looks up) the approval of a tool call. Returns the decision when there is one; otherwise
   * it records the request (its id in `state.pending.approval_id`), closes the step as waiting,
   * checkpoints `state` and throws to suspend the run.
   */
  approval(
    call: ToolCall,
    args: Record<string, unknown>,
    state: AgentState,
    stepId: string,
    need: ApprovalNeed,
  ): Promise<ToolApproval>;
  /**
   * Before a call runs: when its tool waits on something outside the run (Tool.waitsFor: a sub-agent to
   * finish), closes the step as waiting, checkpoints `state` and throws to suspend the run; else returns.
   */
  waitIfNeeded?(
    call: ToolCall,
    args: Record<string, unknown>,
    state: AgentState,
    stepId: string,
  ): Promise<void>;
}

export interface AgentExecutorInput {
  client: ModelClient;
  tools: ToolRegistry;
  context: ToolContext;
  hooks: AgentHooks;
  /** The circuit breaker's loop check; null when it is off. */
  loop: LoopLimits | null;
  /** When to prune and compact the conversation (see context-step.ts); absent or null: never. */
  contextBudget?: ContextBudget | null;
}

/**
 * Runs an agent from `state` to its answer: ask the model, run the tools it calls, feed the results back,
 * until it answers without calling a tool. `state` is updated in place and checkpointed at every step
 * boundary, so a run stopped anywhere (crash, approval, pause) continues from the last boundary.
 */
export async function executeAgent(input: AgentExecutorInput, state: AgentState): Promise<string> {
  const { tools, context, hooks } = input;
  const runner = new ToolRunner(tools, context, { failures: state.failures, errors: state.errors });
  const modelTools = tools.toModelTools();
  const add = (message: ChatMessage) => {
    state.messages.push(message);
    hooks.onMessage(message);
  };

  while (state.output === null) {
    if (context.signal.aborted) throw new CancelledError();
    if (state.pending) {
      await runToolBatch(input, runner, state, add);
      const similarity = input.loop ? detectLoop(state.messages, input.loop) : null;
      if (similarity !== null) await hooks.loop(similarity);
      continue;
    }
    for (const content of await hooks.takeUserInputs()) {
      add({ role: 'user', content });
      await hooks.emit({ type: 'user_input_received', content });
    }
    const { turn, stepId, sent } = await modelTurn(input, state, modelTools);
    state.usage.input_tokens += turn.usage.input_tokens;
    state.usage.output_tokens += turn.usage.output_tokens;
    if (turn.usage.estimated) state.usage.estimated = true;
    // The model's own count of this prompt: the context estimate's ground truth from here on (an estimate
    // of ours is no truth: the context estimate then counts everything afresh).
    state.last_prompt =
      turn.usage.input_tokens > 0 && !turn.usage.estimated
        ? { tokens: turn.usage.input_tokens, messages: sent }
        : null;
    state.thinking += turn.reasoning;
    add({
      role: 'assistant',
      content: turn.text,
      ...(turn.reasoning ? { reasoning: turn.reasoning } : {}),
      ...(turn.toolCalls.length ? { tool_calls: turn.toolCalls } : {}),
    });
    if (turn.toolCalls.length === 0) state.output = turn.text;
    else state.pending = { calls: turn.toolCalls, next: 0 };
    await hooks.commitStep(stepId, state);
    try {
      await hooks.spend(
        { tokens: turn.usage.input_tokens + turn.usage.output_tokens, steps: turn.toolCalls.length },
        turn.toolCalls.length > 0,
      );
    } catch (error) {
      closePending(state, add, 'Not run: the circuit breaker stopped the run.');
      throw error;
    }
  }
  return state.output;
}

/**
 * One model turn, in a step of its own, once the context is within its budget. A turn the server refuses
 * as longer than the model's context window (contextOverflow) is not the end of the run: the window it
 * named is remembered for the endpoint and model, the history is pruned and compacted, and the turn asked
 * again, once. The refusal is final when context management is off, when nothing is left to compact, or
 * when the compacted history is refused too.
 */
async function modelTurn(
  input: AgentExecutorInput,
  state: AgentState,
  modelTools: ModelTool[],
): Promise<{ turn: TurnResult; stepId: string; sent: number }> {
  const { client, context, hooks } = input;
  for (let compacted = false; ; compacted = true) {
    const contextInput = {
      client,
      hooks,
      budget: withLearnedWindow(input.contextBudget ?? null, client),
      signal: context.signal,
    };
    await keepContextInBudget(contextInput, state, modelTools);
    const stepId = await hooks.startStep('model_turn', {});
    const sent = state.messages.length;
    try {
      const turn = await client.turn(
        state.messages,
        modelTools,
        {
          onText: (content) => hooks.emit({ type: 'text_delta', content }),
          onThinking: (content) => hooks.emit({ type: 'thinking', content }),
          onRetry: (notice) => hooks.emit({ type: 'retry', ...notice }),
        },
        context.signal,
      );
      return { turn, stepId, sent };
    } catch (error) {
      await hooks.failStep(stepId, context.signal.aborted ? new CancelledError() : error);
      const overflow = context.signal.aborted ? null : contextOverflow(error);
      if (!overflow) throw error;
      if (overflow.window !== undefined) rememberWindow(client, overflow.window);
      if (compacted) throw error;
      contextInput.budget = withLearnedWindow(input.contextBudget ?? null, client);
      if (!(await keepContextInBudget(contextInput, state, modelTools, true))) throw error;
    }
  }
}

/** Runs the pending tool calls in the model's order, so events and file edits are deterministic. */
async function runToolBatch(
  input: AgentExecutorInput,
  runner: ToolRunner,
  state: AgentState,
  add: (message: ChatMessage) => void,
): Promise<void> {
  const { context, hooks } = input;
  const pending = state.pending!;
  const stepId = await hooks.startStep('tool_batch', {
    tool_calls: pending.calls.slice(pending.next).map((call) => call.name),
  });
  while (pending.next < pending.calls.length) {
    const call = pending.calls[pending.next]!;
    if (context.signal.aborted) {
      closePending(state, add, 'Cancelled before it ran.');
      await hooks.failStep(stepId, new CancelledError());
      throw new CancelledError();
    }
    const { args } = ToolRunner.parseArgs(call);
    // A result decided without running the tool: a rejection, or the user's answer to a question.
    let preset: string | null = null;
    const question =
      call.name === 'question' && input.tools.has('question') ? questionSchema.safeParse(args) : null;
    if (question?.success) {
      const answer = await hooks.ask(call, question.data, state, stepId);
      preset = `The user answered: ${answer}`;
    } else {
      const need = await hooks.needsApproval(call, args);
      const decision = need && (await hooks.approval(call, args, state, stepId, need));
      if (decision?.status === 'rejected') {
        preset = `Not run: the user rejected this call${decision.reason ? ` (${decision.reason})` : ''}.`;
      } else if (decision?.status === 'expired') {
        preset = `Not run: the approval expired (${decision.reason}).`;
      }
    }
    if (preset === null) await hooks.waitIfNeeded?.(call, args, state, stepId);
    await hooks.emit({ type: 'tool_call', tool_name: call.name, args, tool_call_id: call.id });
    let outcome: { args: Record<string, unknown>; result: string };
    if (preset !== null) {
      outcome = { args, result: preset };
    } else {
      try {
        outcome = await runner.run(call);
      } catch (error) {
        // Only a cancellation escapes the runner; keep the conversation well formed for the session.
        closePending(state, add, 'Cancelled while running.');
        await hooks.failStep(stepId, new CancelledError());
        throw KeelError.is(error) && error.code === 'CANCELLED' ? error : new CancelledError();
      }
    }
    await hooks.emit({
      type: 'tool_result',
      tool_name: call.name,
      tool_call_id: call.id,
      result: outcome.result,
    });
    state.traces.push({ tool_name: call.name, args: outcome.args, result: outcome.result });
    add({ role: 'tool', tool_call_id: call.id, content: outcome.result });
    pending.next += 1;
    delete pending.approval_id;
  }
  state.pending = null;
  await hooks.commitStep(stepId, state);
}

/** Answers every call not yet run, so the stored conversation stays valid for a later turn. */
function closePending(state: AgentState, add: (message: ChatMessage) => void, text: string): void {
  if (!state.pending) return;
  for (const call of state.pending.calls.slice(state.pending.next)) {
    add({ role: 'tool', tool_call_id: call.id, content: text });
  }
  state.pending = null;
}
