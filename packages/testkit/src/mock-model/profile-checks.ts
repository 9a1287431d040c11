import type { OpenAIErrorBody } from './openai-error.ts';
import { type ChatProfile, openAIChatFields } from './profiles.ts';
import { isRecord } from './sse.ts';
import type { ChatRequestBody } from './types.ts';

const badRequest = (message: string, param: string | null, code: string | null): OpenAIErrorBody => ({
  error: { message, type: 'invalid_request_error', param, code },
});

/** DeepSeek's words when a tool-calling turn's reasoning was not sent back. */
export const reasoningNotPassedBack =
  'The `reasoning_content` in the thinking mode must be passed back to the API.';

/** DeepSeek's rules for reasoning sent back (profiles.ts, `deepseek`): the first message breaking them. */
function deepseekRefusal(body: ChatRequestBody): OpenAIErrorBody | undefined {
  for (const [index, message] of (body.messages ?? []).entries()) {
    if (!isRecord(message) || message.role !== 'assistant') continue;
    const calls = Array.isArray(message.tool_calls) && message.tool_calls.length > 0;
    const reasoning = typeof message.reasoning_content === 'string';
    if (calls && !reasoning) {
      return badRequest(`${reasoningNotPassedBack} (messages[${index}])`, null, 'invalid_request_error');
    }
    if (!calls && 'reasoning_content' in message) {
      return badRequest(
        `messages[${index}]: reasoning_content of a turn without tool calls must not be sent back; remove it.`,
        null,
        'invalid_request_error',
      );
    }
  }
  return undefined;
}

/**
 * The 400 a profile's server answers to this request, or undefined when it takes it: a refused
 * parameter (named in `param`), an unknown field, or reasoning sent back against DeepSeek's rules.
 */
export function profileRefusal(body: ChatRequestBody, profile: ChatProfile): OpenAIErrorBody | undefined {
  for (const [key, value] of Object.entries(body)) {
    const refused = profile.refuses[key];
    // OpenAI's reasoning models take the default temperature only.
    if (refused && !(key === 'temperature' && value === 1))
      return badRequest(refused.message, key, refused.code);
    if (profile.refusesUnknownFields && !openAIChatFields.has(key)) {
      return badRequest(`Unrecognized request argument supplied: ${key}`, null, null);
    }
  }
  return profile.reasoningSentBack === 'deepseek-rules' ? deepseekRefusal(body) : undefined;
}
