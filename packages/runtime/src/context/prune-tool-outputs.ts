import type { ChatMessage } from '../model/index.ts';
import { estimateTextTokens } from './estimate-tokens.ts';

/** How a pruned output begins: it marks outputs already pruned, and tells the model what happened. */
export const prunedMark = '[Pruned to save context:';

/** Outputs this short cost about as much as their placeholder: pruning them saves nothing. */
const minPrunedTokens = 50;

export interface PruneResult {
  /** The conversation with old outputs replaced (a new array; unchanged messages are shared). */
  messages: ChatMessage[];
  pruned_count: number;
  estimated_tokens_saved: number;
}

/**
 * Replaces old tool outputs by a short placeholder, oldest first, keeping the `keep` most recent outputs
 * and every output the model has not seen yet (those after the last assistant message) intact. The calls
 * themselves stay, so the model still knows what it did and can run a tool again when it needs the output.
 */
export function pruneToolOutputs(messages: readonly ChatMessage[], keep: number): PruneResult {
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.tool_calls ?? []) names.set(call.id, call.name);
  }
  const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant');
  const outputs = messages.flatMap((message, index) => (message.role === 'tool' ? [index] : []));
  const kept = new Set(keep > 0 ? outputs.slice(-keep) : []);
  const result: PruneResult = { messages: [...messages], pruned_count: 0, estimated_tokens_saved: 0 };
  for (const index of outputs) {
    const message = messages[index]!;
    if (message.role !== 'tool' || kept.has(index) || index > lastAssistant) continue;
    if (message.content.startsWith(prunedMark)) continue;
    const tokens = estimateTextTokens(message.content);
    if (tokens < minPrunedTokens) continue;
    const name = names.get(message.tool_call_id) ?? 'the tool';
    const content = `${prunedMark} the output of ${name} (about ${tokens} tokens) was removed. Call the tool again if you need it.]`;
    result.messages[index] = { ...message, content };
    result.pruned_count += 1;
    result.estimated_tokens_saved += tokens - estimateTextTokens(content);
  }
  return result;
}
