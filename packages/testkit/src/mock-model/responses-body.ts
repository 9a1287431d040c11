import type { ResolvedReply, WireToolCall } from './resolve-reply.ts';
import type { Usage } from './usage.ts';

/** The ids of one Responses answer, fixed up front so stream events and the final object agree. */
export type ResponsesIds = { response: string; reasoning: string; message: string; calls: string[] };

/** What the response object echoes from the request. */
export type ResponsesContext = {
  ids: ResponsesIds;
  createdAt: number;
  model: string;
  instructions: unknown;
  tools: unknown;
};

type Item = Record<string, unknown>;
type Status = 'in_progress' | 'completed';

export const reasoningItem = (id: string, text: string | undefined): Item => ({
  type: 'reasoning',
  id,
  summary: text === undefined ? [] : [{ type: 'summary_text', text }],
});

export const outputText = (text: string) => ({ type: 'output_text', text, annotations: [] });

export const messageItem = (id: string, text: string | undefined, status: Status): Item => ({
  type: 'message',
  id,
  status,
  role: 'assistant',
  content: text === undefined ? [] : [outputText(text)],
});

export const functionCallItem = (id: string, call: WireToolCall, args: string, status: Status): Item => ({
  type: 'function_call',
  id,
  call_id: call.id,
  name: call.name,
  arguments: args,
  status,
});

/** The completed output items, in order: reasoning, message, function calls. */
export function outputItems(reply: ResolvedReply, ids: ResponsesIds): Item[] {
  const items: Item[] = [];
  if (reply.reasoning !== undefined) items.push(reasoningItem(ids.reasoning, reply.reasoning));
  if (reply.text !== undefined) items.push(messageItem(ids.message, reply.text, 'completed'));
  reply.toolCalls.forEach((call, index) => {
    items.push(functionCallItem(ids.calls[index] ?? '', call, call.arguments, 'completed'));
  });
  return items;
}

/** Usage in the Responses API's words. */
export function responsesUsage(usage: Usage, reply: ResolvedReply) {
  const reasoning = Math.min(usage.completion_tokens, Math.ceil((reply.reasoning ?? '').length / 4));
  return {
    input_tokens: usage.prompt_tokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: usage.total_tokens,
  };
}

/** The `response` object: in progress (no output yet, no usage) or completed. */
export function responseObject(
  context: ResponsesContext,
  done: { output: Item[]; usage: ReturnType<typeof responsesUsage> } | undefined,
): Item {
  return {
    id: context.ids.response,
    object: 'response',
    created_at: context.createdAt,
    status: done ? 'completed' : 'in_progress',
    error: null,
    incomplete_details: null,
    instructions: context.instructions ?? null,
    max_output_tokens: null,
    model: context.model,
    output: done?.output ?? [],
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: Array.isArray(context.tools) ? context.tools : [],
    top_p: 1,
    truncation: 'disabled',
    usage: done?.usage ?? null,
    metadata: {},
  };
}
