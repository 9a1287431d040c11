import { randomUUID } from 'node:crypto';
import type { ToolTrace } from '../events/index.ts';
import type { ChatMessage, ToolCall } from '../model/index.ts';

/**
 * Everything an agent needs to continue in another process: saved in the run's checkpoint after every
 * model turn and every tool batch (and when it stops to wait for an approval).
 */
export interface AgentState {
  /** Identifies this conversation: a retried node starts a new one (checkpoints store deltas per conversation). */
  conversation: string;
  /** The whole conversation, system prompt included, as the model sees it. */
  messages: ChatMessage[];
  thinking: string;
  traces: ToolTrace[];
  /** Tokens spent; `estimated` once any count in them is Keel's estimate (a server that sent no usage). */
  usage: { input_tokens: number; output_tokens: number; estimated?: boolean };
  /** Failures in a row per tool (the tool retry policy). */
  failures: Record<string, number>;
  /** Tool errors met, for the metadata. */
  errors: string[];
  /** Tool calls of the last model turn not yet all run: resume runs them from `next`. */
  pending: { calls: ToolCall[]; next: number; approval_id?: string } | null;
  /** The final answer once the model stopped calling tools. */
  output: string | null;
  /** Index in `messages` of the user message that set the task: compaction keeps it word for word. */
  task?: number;
  /**
   * The prompt tokens the model counted for its last request, and how many messages that request held:
   * the context estimate starts from them. Null once the history is rewritten.
   */
  last_prompt?: { tokens: number; messages: number } | null;
  /**
   * How many times `messages` was rewritten (pruned or compacted) rather than grown: a checkpoint stores
   * the messages whole after each rewrite, as deltas only hold for a growing list.
   */
  rewrites?: number;
}

export function newAgentState(messages: ChatMessage[]): AgentState {
  return {
    conversation: randomUUID(),
    messages,
    thinking: '',
    traces: [],
    usage: { input_tokens: 0, output_tokens: 0 },
    failures: {},
    errors: [],
    pending: null,
    output: null,
    // The conversation an agent starts from ends with its task.
    task: messages.findLastIndex((message) => message.role === 'user'),
  };
}
