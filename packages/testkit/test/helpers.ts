// Plain-fetch helpers for driving the mock model in tests.
import type { MockModel } from '../src/index.ts';

export type Chunk = {
  id: string;
  object: string;
  model: string;
  choices: Array<{ index: number; delta: Record<string, unknown>; finish_reason: string | null }>;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
};

/**
 * Every JSON body the mock model answers, as one loose type so tests can read any field; the
 * assertions, not this type, check what is really there.
 */
export type WireBody = {
  object: string;
  model: string;
  choices: [
    {
      index: number;
      finish_reason: string;
      message: {
        content: string | null;
        tool_calls: [{ id: string; function: { name: string; arguments: string } }];
      };
    },
  ];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  error: { message: string; type: string; param: string | null; code: string | null };
  data: Array<{ id: string; object: string }>;
};

export const readJson = (response: Response): Promise<WireBody> => response.json() as Promise<WireBody>;

export const userMessage = (content: unknown) => ({ role: 'user', content });

export function postChat(server: MockModel, body: Record<string, unknown>, signal?: AbortSignal) {
  return fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer test-key' },
    body: JSON.stringify({ model: 'mock-model', messages: [userMessage('hi')], ...body }),
    ...(signal ? { signal } : {}),
  });
}

/** Read an SSE body into its `data:` payloads; `done` says whether `[DONE]` arrived last. */
export async function readSse(response: Response): Promise<{ chunks: Chunk[]; done: boolean }> {
  const text = await response.text();
  const payloads = text
    .split('\n\n')
    .filter((event) => event.startsWith('data: '))
    .map((event) => event.slice('data: '.length));
  const done = payloads.at(-1) === '[DONE]';
  const chunks = payloads
    .filter((payload) => payload !== '[DONE]')
    .map((payload) => JSON.parse(payload) as Chunk);
  return { chunks, done };
}

/** Concatenate one delta field (e.g. `content`) across chunks. */
export const joinDeltas = (chunks: Chunk[], field: string): string =>
  chunks.map((chunk) => chunk.choices[0]?.delta[field] ?? '').join('');

type ToolCallDelta = {
  index: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
};

/** Reassemble streamed tool calls the way a client does: by index, appending argument fragments. */
export function assembleToolCalls(chunks: Chunk[]) {
  const calls: Array<{ id: string; name: string; arguments: string; fragments: number }> = [];
  for (const chunk of chunks) {
    const deltas = (chunk.choices[0]?.delta.tool_calls ?? []) as ToolCallDelta[];
    for (const delta of deltas) {
      calls[delta.index] ??= { id: '', name: '', arguments: '', fragments: 0 };
      const call = calls[delta.index]!;
      if (delta.id) call.id = delta.id;
      if (delta.function?.name) call.name += delta.function.name;
      if (delta.function?.arguments) {
        call.arguments += delta.function.arguments;
        call.fragments += 1;
      }
    }
  }
  return calls;
}
