import type { ChatRequestBody, ScriptedReply } from './types.ts';

/** The last message of a request, reduced to what matchers look at. */
export type LastMessage = { role: string | undefined; text: string };

/** Text of a message's content: a string, or the text parts of a content-part array joined. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (part && typeof part === 'object' && typeof part.text === 'string' ? part.text : ''))
    .join('');
}

export function lastMessage(body: ChatRequestBody): LastMessage {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const last = messages.at(-1);
  return { role: typeof last?.role === 'string' ? last.role : undefined, text: contentText(last?.content) };
}

export function replyMatches(reply: ScriptedReply, last: LastMessage): boolean {
  const when = reply.when;
  if (!when) return true;
  if (when.lastRole !== undefined && when.lastRole !== last.role) return false;
  if (when.lastMessageIncludes !== undefined && !last.text.includes(when.lastMessageIncludes)) return false;
  return true;
}

/** Short readable description of the last message, for error messages. */
export function describeLastMessage(last: LastMessage, maxLength = 300): string {
  const text = last.text.length > maxLength ? `${last.text.slice(0, maxLength)}…` : last.text;
  return `(${last.role ?? 'no messages'}) ${JSON.stringify(text)}`;
}
