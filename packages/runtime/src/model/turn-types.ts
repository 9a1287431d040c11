import type { ToolCall } from './messages.ts';

// What a model turn takes and gives, apart from the client that streams it: the request encoder and the
// turn assembler use these too, so they import no client.

/** A function tool in the chat-completions `tools` format. */
export interface ModelTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface TurnUsage {
  input_tokens: number;
  output_tokens: number;
  /**
   * True when the server sent no usage (some never do, even asked with `stream_options.include_usage`)
   * and the counts are Keel's estimate: four characters a token (estimatedUsage).
   */
  estimated?: boolean;
}

/** Everything one model turn produced, assembled from the stream. */
export interface TurnResult {
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  usage: TurnUsage;
  finishReason: string;
}

export interface RetryNotice {
  /** Number of the attempt about to be made (2 for the first retry). */
  attempt: number;
  max_attempts: number;
  error: string;
}

/** Called while a turn streams. A retry means the partial output seen so far is void. */
export interface TurnHandlers {
  onText?(delta: string): void | Promise<void>;
  onThinking?(delta: string): void | Promise<void>;
  onRetry?(notice: RetryNotice): void | Promise<void>;
}
