/**
 * What Keel does differently for each family of chat-completions servers (docs/models.md). Reading the
 * answer is tolerant everywhere (turn-assembler.ts: tool calls without `index`, empty or repeated ids,
 * arguments as an object, `reasoning` or `reasoning_content`); a profile holds only what cannot be
 * told from the answer itself: which text conventions to read, which request fields the server refuses
 * before it is asked, and whether reasoning must be sent back.
 */
export interface ModelProfile {
  name: ModelProfileName;
  /** `<think>…</think>` at the start of `content` is thinking (Qwen3, R1 distills without a reasoning parser). */
  thinkTags: boolean;
  /**
   * `<tool_call>{"name", "arguments"}</tool_call>` in `content` are tool calls, for the offered tools only
   * (Hermes and Qwen models served without a tool parser).
   */
  textToolCalls: boolean;
  /** Send an assistant turn's reasoning back: never, or with every turn that called tools (DeepSeek requires it). */
  reasoningSentBack: 'never' | 'tool-call-turns';
  /** Request fields sent under another name (OpenAI reasoning models want `max_completion_tokens`). */
  renames: Readonly<Record<string, string>>;
  /** Request fields never sent: the server refuses them. */
  omits: readonly string[];
}

export const modelProfileNames = [
  'generic',
  'openai',
  'openai-reasoning',
  'ollama',
  'vllm',
  'llamacpp',
  'lmstudio',
  'deepseek',
] as const;

/** A profile's name: the `model_profile` setting's values. */
export type ModelProfileName = (typeof modelProfileNames)[number];

/** Local servers: every text convention read, nothing refused in advance. */
const local = {
  thinkTags: true,
  textToolCalls: true,
  reasoningSentBack: 'never',
  renames: {},
  omits: [],
} as const;

/** Fields only Qwen-style servers know; OpenAI refuses any field it does not know. */
const notOpenAI = ['enable_thinking', 'thinking_budget'];

export const modelProfiles: Readonly<Record<ModelProfileName, ModelProfile>> = {
  generic: { name: 'generic', ...local },
  ollama: { name: 'ollama', ...local },
  vllm: { name: 'vllm', ...local },
  llamacpp: { name: 'llamacpp', ...local },
  lmstudio: { name: 'lmstudio', ...local },
  deepseek: { name: 'deepseek', ...local, reasoningSentBack: 'tool-call-turns' },
  // OpenAI parses its models' output itself: text that looks like a convention is the model's own text.
  openai: { name: 'openai', ...local, thinkTags: false, textToolCalls: false, omits: notOpenAI },
  'openai-reasoning': {
    name: 'openai-reasoning',
    ...local,
    thinkTags: false,
    textToolCalls: false,
    renames: { max_tokens: 'max_completion_tokens' },
    omits: [...notOpenAI, 'temperature'],
  },
};

/** OpenAI's reasoning models: o1, o3, o4-mini, gpt-5 and their dated or sized variants. */
const openAIReasoning = /^(?:o\d(?:$|[-.])|gpt-5(?:$|[-.]))/;

/** Each local server's default port (docs/models.md). */
const defaultPorts: Readonly<Record<string, ModelProfileName>> = {
  '11434': 'ollama',
  '8000': 'vllm',
  '8080': 'llamacpp',
  '1234': 'lmstudio',
};

/**
 * The profile for an endpoint and model: the `model_profile` setting when set; else the host (OpenAI,
 * DeepSeek), a local server's default port, then the model's name (an OpenAI reasoning model behind a
 * gateway, DeepSeek's names, Ollama's `name:tag`); else `generic`.
 */
export function resolveProfile(baseURL: string, model: string, setting?: ModelProfileName): ModelProfile {
  return modelProfiles[setting ?? detectProfile(baseURL, model)];
}

function detectProfile(baseURL: string, model: string): ModelProfileName {
  const name = model.toLowerCase();
  const bare = name.slice(name.lastIndexOf('/') + 1);
  let url: URL | undefined;
  try {
    url = new URL(baseURL);
  } catch {
    url = undefined;
  }
  if (url?.hostname === 'api.deepseek.com') return 'deepseek';
  if (url?.hostname === 'api.openai.com') return openAIReasoning.test(bare) ? 'openai-reasoning' : 'openai';
  const byPort = url && defaultPorts[url.port];
  if (byPort) return byPort;
  if (openAIReasoning.test(bare)) return 'openai-reasoning';
  if (/^deepseek-(?:chat|reasoner)/.test(name)) return 'deepseek';
  // Ollama names models `name:tag` (qwen2.5-coder:7b); `hf.co/…:Q4_K_M` pulls from Hugging Face.
  if (/^(?:hf\.co\/[^:]+|[^/:]+):[\w.-]+$/.test(name)) return 'ollama';
  return 'generic';
}
