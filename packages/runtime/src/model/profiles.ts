/**
 * What Keel does differently for each family of chat-completions servers (docs/models.md). Reading the
 * answer is tolerant everywhere (turn-assembler.ts: tool calls without `index`, empty or repeated ids,
 * arguments as an object, `reasoning` or `reasoning_content`); a profile holds only what cannot be
 * told from the answer itself: which text conventions to read, which request fields the server refuses
 * before it is asked, and whether reasoning must be sent back.
 */
export interface ModelProfile {
  name: ModelProfileName;
  /**
   * `<think>…</think>` at the start of `content` is thinking (Qwen3, R1 distills without a reasoning parser),
   * and so is everything before a `</think>` that no `<think>` opened.
   */
  thinkTags: boolean;
  /**
   * The model's chat template opens `<think>` in the prompt, so its answer begins inside the thinking and
   * only closes it (R1 distills, QwQ, Qwen3 Thinking-2507): set from the model's name (resolveProfile)
   * where `thinkTags` applies, so that the reasoning streams as thinking from its first word.
   */
  startsInThinking: boolean;
  /**
   * Tool calls written as text are read, for the offered tools only: `<tool_call>` blocks (Hermes, Qwen),
   * `[TOOL_CALLS]` (Mistral), and an answer that is nothing but JSON calls (Llama 3.x, fine-tunes;
   * text-tool-calls.ts, mistral-tool-calls.ts, json-tool-calls.ts).
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
  startsInThinking: false,
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
  const profile = modelProfiles[setting ?? detectProfile(baseURL, model)];
  // Ollama renders its own templates, which leave the `<think>` to the model, and splits thinking out itself.
  const opens = profile.thinkTags && profile.name !== 'ollama' && templateOpensThinking(model);
  return opens ? { ...profile, startsInThinking: true } : profile;
}

/**
 * Models whose chat template ends the prompt with `<think>\n`, so that their answer holds only the closing
 * tag: DeepSeek-R1 and its distills (deepseek-ai/DeepSeek-R1 tokenizer_config.json since 2025-02; vLLM
 * #13125), QwQ-32B, and Qwen3's Thinking-2507 models ("it is normal for the model's output to contain only
 * `</think>`", their model cards). QwQ-32B-Preview writes no tags at all.
 */
const opensThinking = /deepseek-r1|r1-distill|qwq(?!.*preview)|thinking-2507/;

function templateOpensThinking(model: string): boolean {
  return opensThinking.test(model.toLowerCase());
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
