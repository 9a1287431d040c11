import type { ResolvedReply } from './resolve-reply.ts';
import { splitArguments, splitText } from './split-text.ts';
import { sseEvent } from './sse.ts';
import type { Usage } from './usage.ts';

/** What every part of one Anthropic answer shares. */
export type AnthropicContext = { id: string; model: string; chunkSize: number };

/** The signature sent with scripted thinking (clients send it back untouched). */
export const thinkingSignature = 'mock-thinking-signature';

const stopReasons: Record<string, string> = {
  stop: 'end_turn',
  tool_calls: 'tool_use',
  length: 'max_tokens',
};

/** The script's finish reason (chat words) in Anthropic's words; unknown ones are sent as is. */
export const anthropicStopReason = (reply: ResolvedReply): string =>
  stopReasons[reply.finishReason] ?? reply.finishReason;

/** A tool call's input: the parsed arguments, or the raw string when it is not JSON (malformed on purpose). */
export function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Content blocks in order: thinking, text, tool_use. */
export function contentBlocks(reply: ResolvedReply): Array<Record<string, unknown>> {
  const blocks: Array<Record<string, unknown>> = [];
  if (reply.reasoning !== undefined) {
    blocks.push({ type: 'thinking', thinking: reply.reasoning, signature: thinkingSignature });
  }
  if (reply.text !== undefined) blocks.push({ type: 'text', text: reply.text });
  for (const call of reply.toolCalls) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: parseArguments(call.arguments) });
  }
  return blocks;
}

const anthropicUsage = (usage: Usage) => ({
  input_tokens: usage.prompt_tokens,
  output_tokens: usage.completion_tokens,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
});

const message = (
  context: AnthropicContext,
  content: unknown[],
  stopReason: string | null,
  usage: object,
) => ({
  id: context.id,
  type: 'message',
  role: 'assistant',
  model: context.model,
  content,
  stop_reason: stopReason,
  stop_sequence: null,
  usage,
});

/** The non-streamed `message` object. */
export function anthropicMessage(reply: ResolvedReply, usage: Usage, context: AnthropicContext): object {
  return message(context, contentBlocks(reply), anthropicStopReason(reply), anthropicUsage(usage));
}

/**
 * The SSE events of a streamed answer: `message_start`, a `ping`, per block `content_block_start`,
 * deltas (`thinking_delta` + `signature_delta`, `text_delta`, `input_json_delta`) and
 * `content_block_stop`, then `message_delta` (stop reason, usage) and `message_stop`.
 */
export function anthropicEvents(reply: ResolvedReply, usage: Usage, context: AnthropicContext): string[] {
  const events: string[] = [];
  const emit = (type: string, fields: object = {}): void => {
    events.push(sseEvent(type, { type, ...fields }));
  };
  const start = { ...anthropicUsage(usage), output_tokens: 0 };
  emit('message_start', { message: message(context, [], null, start) });
  emit('ping');
  let index = 0;
  const block = (contentBlock: object, deltas: object[]): void => {
    emit('content_block_start', { index, content_block: contentBlock });
    for (const delta of deltas) emit('content_block_delta', { index, delta });
    emit('content_block_stop', { index });
    index += 1;
  };
  const size = context.chunkSize;
  if (reply.reasoning !== undefined) {
    block({ type: 'thinking', thinking: '', signature: '' }, [
      ...splitText(reply.reasoning, size).map((thinking) => ({ type: 'thinking_delta', thinking })),
      { type: 'signature_delta', signature: thinkingSignature },
    ]);
  }
  if (reply.text !== undefined) {
    block(
      { type: 'text', text: '' },
      splitText(reply.text, size).map((text) => ({ type: 'text_delta', text })),
    );
  }
  for (const call of reply.toolCalls) {
    block(
      { type: 'tool_use', id: call.id, name: call.name, input: {} },
      splitArguments(call.arguments, size).map((partial_json) => ({
        type: 'input_json_delta',
        partial_json,
      })),
    );
  }
  emit('message_delta', {
    delta: { stop_reason: anthropicStopReason(reply), stop_sequence: null },
    usage: { input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens },
  });
  emit('message_stop');
  return events;
}
