import type { ResolvedReply } from './resolve-reply.ts';
import type { ChunkContext } from './stream-chunks.ts';

/** The non-streaming chat.completion object for a reply. */
export function buildCompletion(reply: ResolvedReply, context: Omit<ChunkContext, 'chunkSize'>): object {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: reply.text ?? null,
    refusal: null,
  };
  if (reply.reasoning !== undefined) message.reasoning_content = reply.reasoning;
  if (reply.toolCalls.length > 0) {
    message.tool_calls = reply.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    id: context.id,
    object: 'chat.completion',
    created: context.created,
    model: context.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: reply.finishReason }],
    usage: context.usage,
  };
}
