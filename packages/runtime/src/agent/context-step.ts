import {
  type ContextBudget,
  compactHistory,
  contextLimit,
  estimateTokens,
  estimateToolTokens,
  pruneToolOutputs,
  splitHistory,
} from '../context/index.ts';
import type { EventBody } from '../events/index.ts';
import type { ModelClient, ModelTool } from '../model/index.ts';
import type { AgentState } from './agent-state.ts';

/** The part of the agent's hooks (AgentHooks) a context step uses. */
interface ContextHooks {
  emit(event: EventBody): Promise<void>;
  startStep(kind: 'context', detail: Record<string, unknown>): Promise<string>;
  commitStep(stepId: string, state: AgentState): Promise<void>;
  failStep(stepId: string, error: unknown): Promise<void>;
  spend(delta: { tokens: number; steps: number }, enforce: boolean): Promise<void>;
}

export interface ContextStepInput {
  client: ModelClient;
  hooks: ContextHooks;
  /** Null: context management is off. */
  budget: ContextBudget | null;
  signal: AbortSignal;
}

/**
 * Tokens the next request would hold: the model's own count of its last request plus an estimate of the
 * messages added since, or (no usage figures, or a rewritten history) an estimate of everything.
 */
export function contextTokens(state: AgentState, tools: readonly ModelTool[]): number {
  const last = state.last_prompt;
  if (last && last.tokens > 0 && last.messages <= state.messages.length) {
    return last.tokens + estimateTokens(state.messages.slice(last.messages));
  }
  return estimateTokens(state.messages) + estimateToolTokens(tools);
}

/**
 * Before a model turn, keeps the conversation within its context budget: past the threshold, old tool
 * outputs are pruned (a step of its own, `prune` event); if that is not enough, the history is compacted
 * by a summary the model writes (another step, `compact` event). Each step checkpoints the rewritten
 * history, so resume, retry and fork continue from it. A failed summary fails the step and the run with
 * a ModelError; a retry continues from the pruned checkpoint and asks for the summary again.
 *
 * `overflowed`: the server has just refused the conversation as longer than its window, so the estimate
 * fell short. Then both steps run whatever the estimate says, aiming below the refused size too.
 * Answers whether the history was rewritten (false: nothing could be pruned or summarised).
 */
export async function keepContextInBudget(
  input: ContextStepInput,
  state: AgentState,
  tools: readonly ModelTool[],
  overflowed = false,
): Promise<boolean> {
  const { budget, hooks } = input;
  if (!budget || state.pending || state.output !== null) return false;
  let tokens = contextTokens(state, tools);
  const limit = overflowed
    ? Math.min(contextLimit(budget), Math.floor(tokens * budget.threshold))
    : contextLimit(budget);
  if (!overflowed && tokens <= limit) return false;
  // Why the step ran, in its detail: the estimate past the limit, or the server's refusal.
  const cause = overflowed ? { cause: 'context_length' } : {};
  let rewritten = false;

  const pruned = pruneToolOutputs(state.messages, budget.keep_tool_outputs);
  if (pruned.pruned_count > 0) {
    const detail = { action: 'prune', estimated_tokens: tokens, limit, ...cause };
    const stepId = await hooks.startStep('context', detail);
    rewrite(state, pruned.messages);
    rewritten = true;
    tokens = Math.max(0, tokens - pruned.estimated_tokens_saved);
    await hooks.emit({
      type: 'prune',
      pruned_count: pruned.pruned_count,
      estimated_tokens_saved: pruned.estimated_tokens_saved,
    });
    await hooks.commitStep(stepId, state);
    if (!overflowed && tokens <= limit) return true;
  }

  const taskIndex = state.task ?? state.messages.findIndex((message) => message.role === 'user');
  // Room for the recent turns and the summary well inside the budget, so the next turns fit too.
  const recentTokens = Math.floor(limit / 4);
  // Only the task and the latest turn left: nothing to summarise, and the turn goes ahead as it is.
  const split = splitHistory(state.messages, taskIndex, recentTokens);
  if (!split) return rewritten;
  const detail = { action: 'compact', estimated_tokens: tokens, limit, ...cause };
  const stepId = await hooks.startStep('context', detail);
  const compacted = await compactHistory(input.client, state.messages, split, {
    summaryTokens: Math.min(4000, Math.max(256, Math.floor(limit / 8))),
    signal: input.signal,
  }).catch(async (error: unknown) => {
    await hooks.failStep(stepId, error);
    throw error;
  });
  rewrite(state, compacted.messages);
  state.task = compacted.taskIndex;
  state.usage.input_tokens += compacted.usage.input_tokens;
  state.usage.output_tokens += compacted.usage.output_tokens;
  if (compacted.usage.estimated) state.usage.estimated = true;
  await hooks.emit({
    type: 'compact',
    original_messages: compacted.original_messages,
    compacted_messages: compacted.compacted_messages,
    estimated_tokens_saved: compacted.estimated_tokens_saved,
  });
  await hooks.commitStep(stepId, state);
  // The summary's tokens count against the run's budgets like any turn's.
  await hooks.spend({ tokens: compacted.usage.input_tokens + compacted.usage.output_tokens, steps: 0 }, true);
  return true;
}

/** Replaces the history; counted, so the next checkpoint stores it whole (checkpoints store growth). */
function rewrite(state: AgentState, messages: AgentState['messages']): void {
  state.messages = messages;
  state.rewrites = (state.rewrites ?? 0) + 1;
  state.last_prompt = null;
}
