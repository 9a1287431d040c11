import type { ScriptedReply } from './types.ts';

/** A tool call ready for the wire: id filled in, arguments as the exact string to send. */
export type WireToolCall = { id: string; name: string; arguments: string };

/** A reply with defaults applied. */
export type ResolvedReply = Omit<ScriptedReply, 'toolCalls' | 'finishReason'> & {
  toolCalls: WireToolCall[];
  finishReason: string;
};

export function resolveReply(reply: ScriptedReply, nextCallId: () => string): ResolvedReply {
  const toolCalls = (reply.toolCalls ?? []).map((call) => ({
    id: call.id ?? nextCallId(),
    name: call.name,
    // A string is sent as is, so a script can send malformed JSON on purpose.
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
  const finishReason = reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop');
  return { ...reply, toolCalls, finishReason };
}
