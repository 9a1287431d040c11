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

/** How the endpoint wants messages written (the model profile's part of it, profiles.ts). */
export interface WireOptions {
  /**
   * Send an assistant turn's reasoning back as `reasoning_content`: never (most servers refuse or ignore
   * it), or with every turn that called tools, empty if there was none (DeepSeek's thinking mode answers
   * 400 without it).
   */
  reasoningSentBack?: 'never' | 'tool-call-turns';
}

/** Maps our messages to chat-completions messages; images become `image_url` data URLs. */
export function toWireMessages(messages: readonly ChatMessage[], options: WireOptions = {}): WireMessage[] {
  return messages.map((message) => toWireMessage(message, options));
}

/** One message in the chat-completions format. */
export function toWireMessage(message: ChatMessage, options: WireOptions = {}): WireMessage {
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
        ...(message.tool_calls?.length && options.reasoningSentBack === 'tool-call-turns'
          ? { reasoning_content: message.reasoning ?? '' }
          : {}),
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
