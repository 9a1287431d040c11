import { parseArguments } from './anthropic-body.ts';
import type { ResolvedReply } from './resolve-reply.ts';
import { splitText } from './split-text.ts';
import type { Usage } from './usage.ts';

/** What every chunk of one Gemini answer shares. */
export type GeminiContext = { id: string; model: string; chunkSize: number };

type Part = Record<string, unknown>;

const finishReasons: Record<string, string> = { stop: 'STOP', tool_calls: 'STOP', length: 'MAX_TOKENS' };

/** The script's finish reason (chat words) in Gemini's words; unknown ones are sent as is. */
const geminiFinishReason = (reply: ResolvedReply): string =>
  finishReasons[reply.finishReason] ?? reply.finishReason;

const usageMetadata = (usage: Usage) => ({
  promptTokenCount: usage.prompt_tokens,
  candidatesTokenCount: usage.completion_tokens,
  totalTokenCount: usage.total_tokens,
});

/** A function call part; Gemini has no call ids (clients make their own). */
const functionCallPart = (call: ResolvedReply['toolCalls'][number]): Part => ({
  functionCall: { name: call.name, args: parseArguments(call.arguments) },
});

function response(context: GeminiContext, parts: Part[], end?: { reply: ResolvedReply; usage: Usage }) {
  return {
    candidates: [
      {
        content: { role: 'model', parts },
        ...(end ? { finishReason: geminiFinishReason(end.reply) } : {}),
        index: 0,
      },
    ],
    ...(end ? { usageMetadata: usageMetadata(end.usage) } : {}),
    modelVersion: context.model,
    responseId: context.id,
  };
}

/** The non-streamed answer: parts in order thought, text, function calls. */
export function geminiResponse(reply: ResolvedReply, usage: Usage, context: GeminiContext): object {
  const parts: Part[] = [];
  if (reply.reasoning !== undefined) parts.push({ text: reply.reasoning, thought: true });
  if (reply.text !== undefined) parts.push({ text: reply.text });
  parts.push(...reply.toolCalls.map(functionCallPart));
  return response(context, parts, { reply, usage });
}

/**
 * The streamed answer: partial responses of one part each (thought pieces, text pieces, then each
 * function call whole, as Gemini sends them); the last one carries the finish reason and usage.
 */
export function geminiChunks(reply: ResolvedReply, usage: Usage, context: GeminiContext): object[] {
  const parts: Part[] = [
    ...splitText(reply.reasoning ?? '', context.chunkSize).map((text) => ({ text, thought: true })),
    ...splitText(reply.text ?? '', context.chunkSize).map((text) => ({ text })),
    ...reply.toolCalls.map(functionCallPart),
  ];
  if (parts.length === 0) parts.push({ text: '' });
  return parts.map((part, index) =>
    response(context, [part], index === parts.length - 1 ? { reply, usage } : undefined),
  );
}
