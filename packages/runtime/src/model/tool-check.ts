import { KeelError, ModelError } from '../errors/index.ts';
import { ModelClient, type ModelSettings, type ModelTool } from './client.ts';
import type { ChatMessage } from './messages.ts';
import type { ModelProfileName } from './profiles.ts';

/**
 * What one tiny tool-calling request showed: the model called the tool (`works`), the server refused the
 * tools (`refused`: Ollama's "does not support tools", map-error.ts), the model answered in text without
 * calling it (`text`), or the request failed for another reason (`failed`: the error says which).
 */
export type ToolCallingVerdict = 'works' | 'refused' | 'text' | 'failed';

export interface ToolCallingCheck {
  verdict: ToolCallingVerdict;
  /** The profile the request was read with (profiles.ts): what a run on this endpoint and model uses. */
  profile: ModelProfileName;
  /** `text`: what the model answered instead (cut to a line); `refused`: the server's own words; `failed`: the error's message. */
  said?: string;
  /** `text`: why the answer ended (`length` when it ran out of tokens before calling). */
  finishReason?: string;
  /** `refused` and `failed`: the error, a KeelError with its spec code. */
  error?: KeelError;
}

/** The one trivial tool offered: a name and a single string argument any tool-calling model can fill. */
export const toolCheckTool: ModelTool = {
  type: 'function',
  function: {
    name: 'report_status',
    description: 'Reports a one-word status.',
    parameters: {
      type: 'object',
      properties: { status: { type: 'string', description: 'The status word.' } },
      required: ['status'],
    },
  },
};

const prompt: ChatMessage = {
  role: 'user',
  content:
    'This is a test of tool calling. Call the report_status tool with status "ready". Do not answer in text.',
};

/** Room for a short thinking model to think and still call the tool; any answer is cut there. */
const maxOutputTokens = 512;
/** How long the check waits for the whole answer, model loading included (default). */
const defaultTimeoutMs = 60_000;

/**
 * Asks the configured model one tiny tool-calling request (one trivial tool, the server's default
 * `tool_choice`, which is "auto" with tools, and few tokens) through the model client a run uses, so every
 * profile's handling (tool calls written as text, ids, refused fields) applies as in a run. One attempt,
 * bounded by `timeoutMs` (default 60 s) in all: a check, not a run.
 */
export async function checkToolCalling(
  settings: ModelSettings,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<ToolCallingCheck> {
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const client = new ModelClient({
    ...settings,
    maxOutputTokens: Math.min(settings.maxOutputTokens ?? maxOutputTokens, maxOutputTokens),
    retry: { maxAttempts: 1, maxLoadingWaitMs: timeoutMs },
    timeoutMs,
  });
  const profile = client.profile.name;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  try {
    const turn = await client.turn([prompt], [toolCheckTool], {}, signal);
    if (turn.toolCalls.length > 0) return { verdict: 'works', profile };
    const said = turn.text.trim().split('\n')[0]?.slice(0, 200) ?? '';
    return { verdict: 'text', profile, said, finishReason: turn.finishReason };
  } catch (thrown) {
    const error = KeelError.is(thrown)
      ? thrown
      : new ModelError(`The tool-calling check failed: ${String(thrown)}`, {
          retryable: false,
          cause: thrown,
        });
    if (timeout.aborted && !options.signal?.aborted) {
      const words = `The model "${settings.model}" did not answer the tool-calling check within ${timeoutMs / 1000} s.`;
      return { verdict: 'failed', profile, said: words, error };
    }
    if (error.details?.reason === 'no_tools')
      return { verdict: 'refused', profile, said: serverWords(error), error };
    return { verdict: 'failed', profile, said: error.message, error };
  }
}

/** What the server itself said in an error answer (its body's `error.message`), else the error's message. */
function serverWords(error: KeelError): string {
  const said = (error.cause as { error?: { message?: unknown } } | undefined)?.error?.message;
  return typeof said === 'string' ? said : error.message;
}
