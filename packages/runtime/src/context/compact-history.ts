import { KeelError, ModelError } from '../errors/index.ts';
import type { ChatMessage, ModelClient, TurnUsage } from '../model/index.ts';
import { estimateTokens } from './estimate-tokens.ts';
import type { HistorySplit } from './split-history.ts';
import { summaryInstructions, summaryTranscript } from './summary-prompt.ts';

/** How a summary in the history begins: the model reads it as what it is. */
export const summaryMark = '[Summary of the conversation so far:';

export interface CompactOptions {
  /** How long the summary may be, as asked of the model. */
  summaryTokens: number;
  signal: AbortSignal;
}

export interface CompactResult {
  /** System prompt, task, summary, recent turns. */
  messages: ChatMessage[];
  /** Where the task now is. */
  taskIndex: number;
  original_messages: number;
  compacted_messages: number;
  estimated_tokens_saved: number;
  /** What the summary request spent. */
  usage: TurnUsage;
}

/**
 * Replaces the older messages of `split` (a cut of `messages`, see splitHistory) by a summary the model
 * writes: one request to the same client, without tools. The result is the system prompt, the task, the
 * summary and the recent turns. A failed or empty summary throws a ModelError saying so.
 */
export async function compactHistory(
  client: ModelClient,
  messages: readonly ChatMessage[],
  split: HistorySplit,
  options: CompactOptions,
): Promise<CompactResult> {
  const request: ChatMessage[] = [
    { role: 'system', content: summaryInstructions(options.summaryTokens) },
    { role: 'user', content: summaryTranscript(split) },
  ];
  let summary: string;
  let usage: TurnUsage;
  try {
    const turn = await client.turn(request, [], {}, options.signal);
    summary = turn.text.trim();
    usage = turn.usage;
  } catch (error) {
    if (options.signal.aborted || (KeelError.is(error) && error.code === 'CANCELLED')) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new ModelError(`Context compaction failed: the summary request to the model failed: ${reason}`, {
      retryable: (error as { retryable?: boolean }).retryable === true,
      ...((error as { status?: number }).status !== undefined
        ? { status: (error as { status: number }).status }
        : {}),
      cause: error,
    });
  }
  if (!summary) {
    throw new ModelError('Context compaction failed: the model answered the summary request with no text.', {
      retryable: true,
    });
  }
  const note = `${summaryMark} ${split.older.length} earlier messages were replaced by this summary to save context.]`;
  const compacted: ChatMessage[] = [
    ...(split.system ? [split.system] : []),
    split.task,
    { role: 'user', content: `${note}\n\n${summary}` },
    ...split.recent,
  ];
  return {
    messages: compacted,
    taskIndex: split.system ? 1 : 0,
    original_messages: messages.length,
    compacted_messages: compacted.length,
    estimated_tokens_saved: Math.max(0, estimateTokens(messages) - estimateTokens(compacted)),
    usage,
  };
}
