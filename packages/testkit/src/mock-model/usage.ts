import type { ResolvedReply } from './resolve-reply.ts';

/** Token usage in chat-completion words; each protocol renames the fields on the wire. */
export type Usage = { prompt_tokens: number; completion_tokens: number; total_tokens: number };

/** A rough token count: characters / 4, rounded up. */
export const roughTokens = (text: string): number => Math.ceil(text.length / 4);

/**
 * The reply's scripted usage, or a rough count (characters / 4) so usage is always present.
 * `prompt` is the request's conversation in whatever shape its protocol uses.
 */
export function computeUsage(reply: ResolvedReply, prompt: unknown): Usage {
  const scripted = reply.usage;
  const promptTokens = scripted?.prompt_tokens ?? roughTokens(JSON.stringify(prompt ?? []));
  const completion =
    scripted?.completion_tokens ??
    roughTokens(
      (reply.text ?? '') +
        (reply.reasoning ?? '') +
        reply.toolCalls.map((call) => call.name + call.arguments).join(''),
    );
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completion,
    total_tokens: promptTokens + completion,
  };
}
