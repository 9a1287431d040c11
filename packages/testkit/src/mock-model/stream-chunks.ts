import type { ResolvedReply } from './resolve-reply.ts';
import { splitArguments, splitText } from './split-text.ts';
import type { Usage } from './usage.ts';

/** What every chunk of one response shares. */
export type ChunkContext = {
  id: string;
  created: number;
  model: string;
  chunkSize: number;
  /** The request asked for `stream_options.include_usage`. */
  includeUsage: boolean;
  usage: Usage;
};

type Delta = Record<string, unknown>;

/**
 * The chat.completion.chunk objects of a streamed reply, in OpenAI's order: role, reasoning,
 * text, tool calls (header delta, then argument fragments), finish, and the usage chunk if asked.
 */
export function buildStreamChunks(reply: ResolvedReply, context: ChunkContext): object[] {
  const chunk = (delta: Delta, finishReason: string | null = null): object => ({
    id: context.id,
    object: 'chat.completion.chunk',
    created: context.created,
    model: context.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    // OpenAI sends `usage: null` on every chunk but the last when usage was asked for.
    ...(context.includeUsage ? { usage: null } : {}),
  });

  const chunks: object[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of splitText(reply.reasoning ?? '', context.chunkSize)) {
    chunks.push(chunk({ reasoning_content: piece }));
  }
  for (const piece of splitText(reply.text ?? '', context.chunkSize)) {
    chunks.push(chunk({ content: piece }));
  }
  reply.toolCalls.forEach((call, index) => {
    chunks.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
      }),
    );
    for (const piece of splitArguments(call.arguments, context.chunkSize)) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  chunks.push(chunk({}, reply.finishReason));
  if (context.includeUsage) {
    chunks.push({
      id: context.id,
      object: 'chat.completion.chunk',
      created: context.created,
      model: context.model,
      choices: [],
      usage: context.usage,
    });
  }
  return chunks;
}

export const sseData = (payload: object | '[DONE]'): string =>
  `data: ${payload === '[DONE]' ? payload : JSON.stringify(payload)}\n\n`;
