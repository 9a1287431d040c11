import type { ChatMessage, ModelTool } from '../model/index.ts';

// A cheap estimate, for when the model has not said (no usage figures yet, or a history just rewritten):
// about four characters a token for English and code, as OpenAI's rule of thumb.
const charsPerToken = 4;
/** Role markers and separators every chat template adds around a message. */
const perMessage = 4;
/** An image attachment, counted whole: its base64 length says nothing of what a model charges for it. */
const perImage = 1000;

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / charsPerToken);
}

export function estimateMessageTokens(message: ChatMessage): number {
  let tokens = perMessage + estimateTextTokens(message.content);
  if (message.role === 'user') tokens += (message.images?.length ?? 0) * perImage;
  if (message.role === 'assistant') {
    for (const call of message.tool_calls ?? []) {
      tokens += perMessage + estimateTextTokens(call.name + call.arguments);
    }
  }
  return tokens;
}

export function estimateTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
}

/** The tool definitions a request carries count against the context too. */
export function estimateToolTokens(tools: readonly ModelTool[]): number {
  return tools.length ? estimateTextTokens(JSON.stringify(tools)) : 0;
}
