import type { ResolvedReply } from './resolve-reply.ts';
import type { ChatRequestBody } from './types.ts';

export type Usage = { prompt_tokens: number; completion_tokens: number; total_tokens: number };

const roughTokens = (text: string): number => Math.ceil(text.length / 4);

/** The reply's scripted usage, or a rough count (characters / 4) so usage is always present. */
export function computeUsage(reply: ResolvedReply, body: ChatRequestBody): Usage {
  const scripted = reply.usage;
  const prompt = scripted?.prompt_tokens ?? roughTokens(JSON.stringify(body.messages ?? []));
  const completion =
    scripted?.completion_tokens ??
    roughTokens(
      (reply.text ?? '') +
        (reply.reasoning ?? '') +
        reply.toolCalls.map((call) => call.name + call.arguments).join(''),
    );
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}
