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

/** A call's arguments as the model writes them: the JSON, or a malformed string as it is. */
function argumentsJson(call: WireToolCall): string {
  const value = argumentsValue(call);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The calls as a profile's model writes them into its text (profiles.ts, ToolCallWire), or undefined. */
function textToolCalls(calls: WireToolCall[], profile: ChatProfile): string | undefined {
  const named = (call: WireToolCall, key = 'arguments') =>
    `{"name": ${JSON.stringify(call.name)}, "${key}": ${argumentsJson(call)}}`;
  switch (profile.toolCalls) {
    case 'hermes-text':
      return calls.map((call) => `<tool_call>\n${named(call)}\n</tool_call>`).join('\n\n');
    case 'mistral-text':
      return calls.map((call) => `[TOOL_CALLS]${call.name}[ARGS]${argumentsJson(call)}`).join('');
    case 'mistral-v3-text':
      return `[TOOL_CALLS] [${calls.map((call) => named(call)).join(', ')}]`;
    case 'llama3-json-text':
      return calls.map((call) => named(call, 'parameters')).join('; ');
    case 'fenced-json-text':
      return calls.map((call) => `\`\`\`json\n${named(call)}\n\`\`\``).join('\n\n');
    default:
      return undefined;
  }
}

/** Whether a profile's model writes its calls as text (the server sees none). */
const callsAsText = (profile: ChatProfile): boolean => textToolCalls([], profile) !== undefined;

/** The `content` a profile sends: the text, with the thinking before it and text tool calls after it. */
function profileContent(reply: ResolvedReply, profile: ChatProfile): string | undefined {
  const parts: string[] = [];
  if (profile.reasoning === 'think-tags' && reply.reasoning !== undefined) {
    parts.push(`<think>\n${reply.reasoning}\n</think>\n\n`);
  }
  // The template opened the thinking in the prompt: the model only closes it.
  if (profile.reasoning === 'think-close-only' && reply.reasoning !== undefined) {
    parts.push(`${reply.reasoning}\n</think>\n\n`);
  }
  if (reply.text !== undefined) parts.push(reply.text);
  const calls = reply.toolCalls.length > 0 ? textToolCalls(reply.toolCalls, profile) : undefined;
  // Mistral's token follows the text at once; the others start a paragraph of their own.
  if (calls !== undefined)
    parts.push(`${parts.length && !calls.startsWith('[TOOL_CALLS]') ? '\n\n' : ''}${calls}`);
  return parts.length ? parts.join('') : undefined;
}

/** The reasoning field a profile sends, if it sends reasoning in a field at all. */
const reasoningField = (profile: ChatProfile): string | undefined =>
  profile.reasoning === 'reasoning_content' || profile.reasoning === 'reasoning'
    ? profile.reasoning
    : undefined;

/** Whether the answer carries structured tool calls (a model writing them as text has none). */
const structuredCalls = (reply: ResolvedReply, profile: ChatProfile): boolean =>
  !callsAsText(profile) && reply.toolCalls.length > 0;

function profileFinishReason(reply: ResolvedReply, profile: ChatProfile): string {
  // The server sees no tool call in text, so it finishes as for any text.
  if (callsAsText(profile) && reply.finishReason === 'tool_calls') return 'stop';
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
