import type OpenAI from 'openai';

/** An image attachment, as the spec's ImagePayload. */
export interface ImagePayload {
  /** Base64 data, without a `data:` prefix. */
  data: string;
  /** MIME type such as image/png or image/jpeg. */
  media_type: string;
  filename?: string;
}

export interface ToolCall {
  id: string;
  name: string;
  /** The raw JSON text the model sent; it may be malformed. */
  arguments: string;
}

/** One conversation message: our own shape, mapped to the wire format at the edge. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string; images?: ImagePayload[] }
  | { role: 'assistant'; content: string; reasoning?: string; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

type WireMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/** Maps our messages to chat-completions messages; images become `image_url` data URLs. */
export function toWireMessages(messages: readonly ChatMessage[]): WireMessage[] {
  return messages.map(toWireMessage);
}

/** One message in the chat-completions format. */
export function toWireMessage(message: ChatMessage): WireMessage {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      if (!message.images?.length) return { role: 'user', content: message.content };
      return {
        role: 'user',
        content: [
          { type: 'text', text: message.content },
          ...message.images.map((image) => ({
            type: 'image_url' as const,
            image_url: { url: `data:${image.media_type};base64,${image.data}` },
          })),
        ],
      };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.tool_calls?.length
          ? {
              tool_calls: message.tool_calls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: call.name, arguments: call.arguments },
              })),
            }
          : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.tool_call_id, content: message.content };
  }
}
