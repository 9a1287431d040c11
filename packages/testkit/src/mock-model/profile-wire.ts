import type { ChatProfile } from './profiles.ts';
import type { ResolvedReply, WireToolCall } from './resolve-reply.ts';
import { splitArguments, splitText } from './split-text.ts';
import type { ChunkContext } from './stream-chunks.ts';

/** One tool call as a profile writes it: ids per its rule, arguments a string or an object. */
type ProfileToolCall = { id: string; name: string; arguments: unknown };

/** The arguments as an object when they are JSON (a malformed string stays as it is). */
function argumentsValue(call: WireToolCall): unknown {
  try {
    return JSON.parse(call.arguments);
  } catch {
    return call.arguments;
  }
}

function profileToolCalls(reply: ResolvedReply, profile: ChatProfile): ProfileToolCall[] {
  const first = reply.toolCalls[0]?.id ?? '';
  return reply.toolCalls.map((call) => ({
    id: profile.toolCallIds === 'empty' ? '' : profile.toolCallIds === 'repeated' ? first : call.id,
    name: call.name,
    arguments: profile.argumentsAs === 'object' ? argumentsValue(call) : call.arguments,
  }));
}

/** A call as Hermes-style models write it into their text. */
function hermesBlock(call: WireToolCall): string {
  const value = argumentsValue(call);
  // A malformed argument string goes in as it is, as a model that wrote it would have.
  const args = typeof value === 'string' ? value : JSON.stringify(value);
  return `<tool_call>\n{"name": ${JSON.stringify(call.name)}, "arguments": ${args}}\n</tool_call>`;
}

/** The `content` a profile sends: the text, with `<think>` before it and Hermes tool calls after it. */
function profileContent(reply: ResolvedReply, profile: ChatProfile): string | undefined {
  const parts: string[] = [];
  if (profile.reasoning === 'think-tags' && reply.reasoning !== undefined) {
    parts.push(`<think>\n${reply.reasoning}\n</think>\n\n`);
  }
  if (reply.text !== undefined) parts.push(reply.text);
  if (profile.toolCalls === 'hermes-text') {
    for (const call of reply.toolCalls) parts.push(`${parts.length ? '\n\n' : ''}${hermesBlock(call)}`);
  }
  return parts.length ? parts.join('') : undefined;
}

/** The reasoning field a profile sends, if it sends reasoning in a field at all. */
const reasoningField = (profile: ChatProfile): string | undefined =>
  profile.reasoning === 'reasoning_content' || profile.reasoning === 'reasoning'
    ? profile.reasoning
    : undefined;

/** Whether the answer carries structured tool calls (a Hermes model's are only text). */
const structuredCalls = (reply: ResolvedReply, profile: ChatProfile): boolean =>
  profile.toolCalls !== 'hermes-text' && reply.toolCalls.length > 0;

function profileFinishReason(reply: ResolvedReply, profile: ChatProfile): string {
  // The server sees no tool call in text, so it finishes as for any text.
  if (profile.toolCalls === 'hermes-text' && reply.finishReason === 'tool_calls') return 'stop';
  if (structuredCalls(reply, profile) && reply.finishReason === 'tool_calls')
    return profile.finishWithToolCalls;
  return reply.finishReason;
}

/** The non-streamed chat.completion of a reply in a profile's dialect. */
export function buildProfileCompletion(
  reply: ResolvedReply,
  profile: ChatProfile,
  context: Omit<ChunkContext, 'chunkSize'>,
): object {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: profileContent(reply, profile) ?? null,
  };
  const field = reasoningField(profile);
  if (field && reply.reasoning !== undefined) message[field] = reply.reasoning;
  if (structuredCalls(reply, profile)) {
    message.tool_calls = profileToolCalls(reply, profile).map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    id: context.id,
    object: 'chat.completion',
    created: context.created,
    model: context.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: profileFinishReason(reply, profile) }],
    usage: context.usage,
  };
}

/** The chat.completion.chunk objects of a streamed reply in a profile's dialect. */
export function buildProfileChunks(
  reply: ResolvedReply,
  profile: ChatProfile,
  context: ChunkContext,
): object[] {
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): object => ({
    id: context.id,
    object: 'chat.completion.chunk',
    created: context.created,
    model: context.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(context.includeUsage ? { usage: null } : {}),
  });
  const chunks: object[] = [chunk({ role: 'assistant', content: '' })];
  const field = reasoningField(profile);
  if (field) {
    for (const piece of splitText(reply.reasoning ?? '', context.chunkSize))
      chunks.push(chunk({ [field]: piece }));
  }
  // `<think>` and Hermes tags are split wherever the chunk size falls, as a token stream splits them.
  for (const piece of splitText(profileContent(reply, profile) ?? '', context.chunkSize)) {
    chunks.push(chunk({ content: piece }));
  }
  if (structuredCalls(reply, profile)) {
    profileToolCalls(reply, profile).forEach((call, index) => {
      const whole = {
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      };
      if (profile.toolCalls === 'whole-at-index-0')
        chunks.push(chunk({ tool_calls: [{ index: 0, ...whole }] }));
      else if (profile.toolCalls === 'whole-without-index') chunks.push(chunk({ tool_calls: [whole] }));
      else {
        const header = { ...whole, function: { name: call.name, arguments: '' } };
        chunks.push(chunk({ tool_calls: [{ index, ...header }] }));
        const text = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
        for (const piece of splitArguments(text, context.chunkSize)) {
          chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
        }
      }
    });
  }
  chunks.push(chunk({}, profileFinishReason(reply, profile)));
  if (context.includeUsage) {
    chunks.push({
      id: context.id,
      object: 'chat.completion.chunk',
      created: context.created,
      model: context.model,
      choices: [],
      usage: context.usage,
    });
  }
  return chunks;
}
