import type { ChatMessage } from '../model/index.ts';
import { estimateMessageTokens } from './estimate-tokens.ts';

/** A conversation cut for compaction: what stays as it is, and what a summary replaces. */
export interface HistorySplit {
  /** The system prompt, when the conversation starts with one. */
  system: ChatMessage | null;
  /** The user message that set the task. */
  task: ChatMessage;
  /** Everything else before the recent turns, in order: what the summary replaces. */
  older: ChatMessage[];
  /** The most recent turns, kept word for word. */
  recent: ChatMessage[];
}

/**
 * Cuts `messages` into system prompt, task, older messages and recent turns. The recent turns are the
 * latest that fit in `recentTokens` (at least the last turn), and a cut never falls between a tool call
 * and its results, which the model's API would refuse. Null when nothing is left to summarise.
 */
export function splitHistory(
  messages: readonly ChatMessage[],
  taskIndex: number,
  recentTokens: number,
): HistorySplit | null {
  const task = messages[taskIndex];
  if (task?.role !== 'user') return null;
  const hasSystem = messages[0]?.role === 'system' && taskIndex > 0;
  // Where the recent turns may begin: any message after the task but a tool result.
  let start = -1;
  let tokens = 0;
  for (let index = messages.length - 1; index > taskIndex; index--) {
    tokens += estimateMessageTokens(messages[index]!);
    if (messages[index]!.role === 'tool') continue;
    if (start !== -1 && tokens > recentTokens) break;
    start = index;
  }
  if (start === -1) return null;
  const older = messages.filter(
    (_, index) => index < start && index !== taskIndex && !(hasSystem && index === 0),
  );
  if (older.length === 0) return null;
  return {
    system: hasSystem ? messages[0]! : null,
    task,
    older,
    recent: messages.slice(start),
  };
}
