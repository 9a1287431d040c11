import type { ChatMessage } from '@keel/runtime';
import type { Entry } from './transcript.ts';

/**
 * A stored conversation as transcript entries, so a session switched to reads as it did live: prompts,
 * answers, and each tool call with its result. System messages are the runtime's, not the user's: left out.
 */
export function historyEntries(messages: readonly ChatMessage[]): Entry[] {
  const entries: Entry[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        entries.push({
          kind: 'user',
          text: message.content,
          images: (message.images ?? []).map((image, index) => image.filename ?? `image ${index + 1}`),
          duringRun: false,
        });
        break;
      case 'assistant':
        if (message.content) entries.push({ kind: 'assistant', text: message.content });
        for (const call of message.tool_calls ?? []) {
          entries.push({
            kind: 'tool',
            callId: call.id,
            name: call.name,
            args: parseArguments(call.arguments),
            result: null,
          });
        }
        break;
      case 'tool': {
        const index = entries.findLastIndex(
          (entry) => entry.kind === 'tool' && entry.callId === message.tool_call_id,
        );
        const call = entries[index];
        if (call?.kind === 'tool') entries[index] = { ...call, result: message.content };
        break;
      }
      default:
        break;
    }
  }
  return entries;
}

/** Tool-call arguments are stored as the JSON text the model sent, which may be malformed. */
function parseArguments(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // Shown as sent, below.
  }
  return { arguments: text };
}
