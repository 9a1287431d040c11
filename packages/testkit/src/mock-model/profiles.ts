/**
 * Profiles of the scripted model server: how servers that call themselves OpenAI-compatible really write
 * chat completions. Each profile is a small table of behaviours, each with where it is documented (the
 * server's docs, source or issue tracker), so a client can be tested against what users meet without
 * running the server. A profile changes only `POST /v1/chat/completions`; without one (or with `openai`)
 * the server speaks OpenAI's wire exactly, as it always did.
 */

/** Where reasoning goes in an answer. */
export type ReasoningWire =
  /** A `reasoning_content` delta / message field (DeepSeek, vLLM before 0.11, llama.cpp `deepseek` format). */
  | 'reasoning_content'
  /** A `reasoning` delta / message field (Ollama, vLLM 0.11 and later, OpenRouter). */
  | 'reasoning'
  /** `<think>…</think>` at the start of `content` (no reasoning parser: Qwen3, R1 distills). */
  | 'think-tags'
  /**
   * The reasoning then `</think>` at the start of `content`, with no `<think>`: the chat template put it in
   * the prompt (DeepSeek-R1 distills, QwQ, Qwen3 Thinking-2507) and no reasoning parser runs.
   */
  | 'think-close-only'
  /** Not sent at all (OpenAI's chat completions keep reasoning server side). */
  | 'hidden';

/** How tool calls are written in a stream. */
export type ToolCallWire =
  /** OpenAI: a header delta (index, id, name, `arguments: ''`), then argument fragments. */
  | 'fragments'
  /** Each call whole in one chunk, every one at `index: 0`. */
  | 'whole-at-index-0'
  /** Each call whole in one chunk, without `index`. */
  | 'whole-without-index'
  /** No tool calls at all: `<tool_call>{"name", "arguments"}</tool_call>` text in `content` (Hermes, Qwen). */
  | 'hermes-text'
  /** Mistral tokenizer v11+ text: `[TOOL_CALLS]name[ARGS]{…}` for each call, after the text. */
  | 'mistral-text'
  /** Mistral tokenizer v2–v7 text: `[TOOL_CALLS] [{"name", "arguments"}, …]` after the text. */
  | 'mistral-v3-text'
  /** Llama 3.x JSON tool calling without a parser: `{"name", "parameters"}` objects joined by `; `. */
  | 'llama3-json-text'
  /** A fine-tune's calls each in a ```json fence: `{"name", "arguments"}`, blocks apart by a blank line. */
  | 'fenced-json-text';

/** One documented behaviour and where it is documented. */
export type DocumentedBehaviour = { behaviour: string; source: string };

/** A server family's chat-completions dialect. */
export type ChatProfile = {
  name: MockProfileName;
  /** The server, as users know it. */
  server: string;
  reasoning: ReasoningWire;
  toolCalls: ToolCallWire;
  /** Tool call ids: as scripted, all empty, or the first call's id repeated for every call. */
  toolCallIds: 'as-scripted' | 'empty' | 'repeated';
  /** Arguments as the JSON string OpenAI sends, or as an object. */
  argumentsAs: 'string' | 'object';
  /** The finish reason of an answer with tool calls. */
  finishWithToolCalls: 'tool_calls' | 'stop';
  /** Request fields answered with a 400 naming them (OpenAI's error shape, `param` set). */
  refuses: Readonly<Record<string, RefusedParameter>>;
  /** Request fields OpenAI does not know are refused (`Unrecognized request argument supplied: x`). */
  refusesUnknownFields: boolean;
  /**
   * DeepSeek's rules for reasoning sent back: an assistant message with tool calls must carry its
   * `reasoning_content`; one without must not.
   */
  reasoningSentBack: 'any' | 'deepseek-rules';
  /** Each behaviour above and its source. */
  documented: readonly DocumentedBehaviour[];
};

/** A refused request field: the error's message and code. */
export type RefusedParameter = { message: string; code: string };

export const mockProfileNames = [
  'openai',
  'ollama',
  'ollama-legacy',
  'vllm-hermes',
  'qwen',
  'vllm-reasoning',
  'llamacpp',
  'lmstudio',
  'deepseek',
  'openai-reasoning',
  'mistral',
  'mistral-v3',
  'llama3-json',
  'fenced-json',
  'r1-distill',
] as const;

/** A profile of the scripted model server (`startMockModel({ profile })`, `keel-mock-model --profile`). */
export type MockProfileName = (typeof mockProfileNames)[number];

const openAI: Omit<ChatProfile, 'name' | 'server' | 'documented'> = {
  reasoning: 'reasoning_content',
  toolCalls: 'fragments',
  toolCallIds: 'as-scripted',
  argumentsAs: 'string',
  finishWithToolCalls: 'tool_calls',
  refuses: {},
  refusesUnknownFields: false,
  reasoningSentBack: 'any',
};

const ollamaSource = 'ollama/ollama openai/openai.go (ToChunk, ToToolCalls, Message.Reasoning)';
const hermesSource =
  'vLLM docs "Tool Calling" (tool calls are parsed only with --enable-auto-tool-choice --tool-call-parser); ' +
  'vllm/tool_parsers/hermes_tool_parser.py (<tool_call>…</tool_call>); anomalyco/opencode#1122';
const thinkSource =
  'vLLM docs "Reasoning Outputs" (reasoning is split out only with --reasoning-parser; Qwen3 thinks by default)';

const qwenLike: Omit<ChatProfile, 'name' | 'server'> = {
  ...openAI,
  reasoning: 'think-tags',
  toolCalls: 'hermes-text',
  finishWithToolCalls: 'stop',
  documented: [
    {
      behaviour: 'tool calls are <tool_call>{"name","arguments"}</tool_call> text in content',
      source: hermesSource,
    },
    { behaviour: 'finish_reason is "stop": the server saw no tool call', source: hermesSource },
    { behaviour: '<think>…</think> at the start of content', source: thinkSource },
  ],
};

const unsupportedMaxTokens: RefusedParameter = {
  message:
    "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
  code: 'unsupported_parameter',
};

const unsupportedTemperature: RefusedParameter = {
  message:
    "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.",
  code: 'unsupported_value',
};

/** Calls written as text: the server saw none and finishes as for any text; nothing to reason with. */
const textCalls: Omit<ChatProfile, 'name' | 'server' | 'toolCalls' | 'documented'> = {
  ...openAI,
  reasoning: 'hidden',
  finishWithToolCalls: 'stop',
};

const mistralCommonSource =
  'mistralai/mistral-common src/mistral_common/tokens/tokenizers/tools.py (decode_tool_calls)';
const mistralParserSource = 'vllm/tool_parsers/mistral_tool_parser.py (extract_tool_calls)';

/** Every profile's table. */
export const chatProfiles: Readonly<Record<MockProfileName, ChatProfile>> = {
  openai: {
    ...openAI,
    name: 'openai',
    server: 'OpenAI chat completions (the default: exactly what the server always sent)',
    documented: [{ behaviour: 'OpenAI wire', source: 'platform.openai.com/docs/api-reference/chat' }],
  },
  ollama: {
    ...openAI,
    name: 'ollama',
    server: 'Ollama /v1 (http://localhost:11434/v1)',
    reasoning: 'reasoning',
    toolCalls: 'whole-at-index-0',
    argumentsAs: 'object',
    documented: [
      { behaviour: 'reasoning in a `reasoning` field', source: ollamaSource },
      {
        behaviour: 'each tool call whole in one chunk; calls of separate chunks each numbered from index 0',
        source: `${ollamaSource}; ollama/ollama#7881`,
      },
      {
        behaviour: "arguments as an object, as Ollama's own /api/chat writes them and proxies pass them on",
        source: 'ollama/ollama docs/api.md ("tool_calls"… "arguments": {…}); ollama/ollama#12557',
      },
    ],
  },
  'ollama-legacy': {
    ...openAI,
    name: 'ollama-legacy',
    server: 'Ollama /v1 as it was in 2024',
    reasoning: 'think-tags',
    toolCalls: 'whole-without-index',
    finishWithToolCalls: 'stop',
    documented: [
      { behaviour: 'streamed tool calls without `index`', source: 'ollama/ollama#7881' },
      { behaviour: 'finish_reason "stop" with tool calls', source: 'ollama/ollama#5995 (the fix)' },
      {
        behaviour: '<think> in content (no `reasoning` field before 0.9)',
        source: 'ollama/ollama v0.9.0 release notes',
      },
    ],
  },
  'vllm-hermes': {
    ...qwenLike,
    name: 'vllm-hermes',
    server: 'vLLM without a tool parser, Hermes/Qwen model',
  },
  qwen: { ...qwenLike, name: 'qwen', server: 'Qwen2.5/Qwen3 served without a tool or reasoning parser' },
  'vllm-reasoning': {
    ...openAI,
    name: 'vllm-reasoning',
    server: 'vLLM 0.11+ with --reasoning-parser and --tool-call-parser (http://localhost:8000/v1)',
    reasoning: 'reasoning',
    documented: [
      {
        behaviour: 'reasoning in `reasoning` (it was `reasoning_content` before)',
        source: 'vLLM docs "Reasoning Outputs" (warning: reasoning used to be called reasoning_content)',
      },
    ],
  },
  llamacpp: {
    ...openAI,
    name: 'llamacpp',
    server: 'llama.cpp llama-server --jinja (http://localhost:8080/v1)',
    reasoning: 'think-tags',
    toolCallIds: 'empty',
    finishWithToolCalls: 'stop',
    documented: [
      {
        behaviour: '<think> left in content',
        source:
          'llama.cpp tools/server/README.md --reasoning-format ("none: leaves thoughts unparsed in message.content")',
      },
      { behaviour: 'empty tool call ids', source: 'ggml-org/llama.cpp#11992, #12279' },
      {
        behaviour: 'finish_reason "stop" with tool calls',
        source:
          'reported across OpenAI-compatible servers: ollama/ollama#5995, openvinotoolkit/model_server#3927',
      },
    ],
  },
  lmstudio: {
    ...openAI,
    name: 'lmstudio',
    server: 'LM Studio (http://localhost:1234/v1)',
    reasoning: 'think-tags',
    toolCallIds: 'empty',
    documented: [
      { behaviour: 'tool calls with an empty id', source: 'lmstudio-ai/lmstudio-bug-tracker#830' },
      {
        behaviour: '<think> left in content for reasoning models',
        source: 'lmstudio-ai/lmstudio-bug-tracker#1569 (thinking in content, not reasoning_content)',
      },
    ],
  },
  deepseek: {
    ...openAI,
    name: 'deepseek',
    server: 'DeepSeek API (https://api.deepseek.com)',
    toolCallIds: 'repeated',
    reasoningSentBack: 'deepseek-rules',
    documented: [
      { behaviour: 'reasoning in `reasoning_content`', source: 'api-docs.deepseek.com/guides/thinking_mode' },
      {
        behaviour:
          'an assistant turn with tool calls must send its reasoning_content back, else 400 ' +
          '"The `reasoning_content` in the thinking mode must be passed back to the API."',
        source: 'api-docs.deepseek.com/guides/thinking_mode#tool-calls',
      },
      {
        behaviour: 'reasoning_content sent back on a turn without tool calls is refused with a 400',
        source:
          'api-docs.deepseek.com/guides/reasoning_model (deepseek-reasoner); thinking_mode says it is ignored',
      },
      { behaviour: 'parallel tool calls reuse one id', source: 'HKUDS/nanobot#3943 (DeepSeek, GLM)' },
    ],
  },
  'openai-reasoning': {
    ...openAI,
    name: 'openai-reasoning',
    server: 'OpenAI reasoning models (o1, o3, o4-mini, gpt-5)',
    reasoning: 'hidden',
    refuses: { max_tokens: unsupportedMaxTokens, temperature: unsupportedTemperature },
    refusesUnknownFields: true,
    documented: [
      {
        behaviour: `max_tokens refused: "${unsupportedMaxTokens.message}"`,
        source: 'OpenAI error body quoted in griptape-ai/ComfyUI-Griptape#312, teilomillet/gollm#33',
      },
      {
        behaviour: 'temperature other than 1 refused',
        source: 'OpenAI reasoning guide ("unsupported parameters")',
      },
      {
        behaviour: 'unknown fields refused: "Unrecognized request argument supplied: <name>"',
        source: 'OpenAI API (any field outside the chat completions reference)',
      },
      { behaviour: 'reasoning is not returned by chat completions', source: 'OpenAI reasoning guide' },
    ],
  },
  mistral: {
    ...textCalls,
    name: 'mistral',
    server:
      'A Mistral model (tokenizer v11+: Mistral Small 3.1+, Devstral, Magistral) served without a tool parser',
    toolCalls: 'mistral-text',
    documented: [
      {
        behaviour: 'tool calls are [TOOL_CALLS]name[ARGS]{…} text after the answer, one token per call',
        source: `${mistralCommonSource} (v11+ without call ID); ${mistralParserSource}`,
      },
      {
        behaviour: 'the calls stay in content when the server does not parse them',
        source: 'lmstudio-ai/lmstudio-bug-tracker#797 (Mistral Small 3.2, Mistral 7B v0.3)',
      },
    ],
  },
  'mistral-v3': {
    ...textCalls,
    name: 'mistral-v3',
    server:
      'A Mistral model (tokenizer v2–v7: Mistral 7B v0.3, Mixtral 8x22B, Codestral 22B) without a tool parser',
    toolCalls: 'mistral-v3-text',
    documented: [
      {
        behaviour: 'tool calls are [TOOL_CALLS] [{"name", "arguments"}, …]: one token, then a JSON list',
        source: `${mistralCommonSource} (v2 to v7); ${mistralParserSource} ("< v11")`,
      },
    ],
  },
  'llama3-json': {
    ...textCalls,
    name: 'llama3-json',
    server: 'Llama 3.1/3.2/3.3 with its JSON tool template, served without a tool parser',
    toolCalls: 'llama3-json-text',
    documented: [
      {
        behaviour: 'a call is the whole answer: {"name": …, "parameters": {…}}; several are joined by "; "',
        source:
          'meta-llama Llama-3.1 chat template ("Respond in the format {"name": function name, "parameters": ' +
          'dictionary of argument name and its value}"); vllm/tool_parsers/llama_tool_parser.py (llama3_json)',
      },
      {
        behaviour: 'without --tool-call-parser llama3_json the JSON stays in content',
        source:
          'vLLM docs "Tool Calling" (calls are parsed only with --tool-call-parser); vllm-project/vllm#16214 ' +
          '(Llama 4: the same JSON left in content between <|python_start|> and <|python_end|>)',
      },
    ],
  },
  'fenced-json': {
    ...textCalls,
    name: 'fenced-json',
    server:
      'Qwen2.5-Coder and fine-tunes that wrap a JSON call in a ```json fence instead of their template tags',
    toolCalls: 'fenced-json-text',
    documented: [
      {
        behaviour: 'each call a ```json fenced {"name", "arguments"} block, nothing else in the answer',
        source: 'ardanlabs/kronk#950 (Qwen2.5-Coder-14B; ollama/ollama#16821, ric03uec/lmstack#1)',
      },
      {
        behaviour: 'or the bare JSON object as the whole answer',
        source: 'ollama/ollama-vscode#20 (qwen2.5-coder:7b), Gitlawb/openclaude#433',
      },
    ],
  },
  'r1-distill': {
    ...openAI,
    name: 'r1-distill',
    server: 'A DeepSeek-R1 distill on vLLM with a tool parser but no --reasoning-parser',
    reasoning: 'think-close-only',
    documented: [
      {
        behaviour:
          'content holds the reasoning and </think>, never <think>: the template ends the prompt with it',
        source:
          'vllm-project/vllm#13125; deepseek-ai/DeepSeek-R1#352 (chat_template gained "<think>\\n" in 2025-02)',
      },
    ],
  },
};

/**
 * The request fields of OpenAI's chat completions reference; a profile with `refusesUnknownFields`
 * refuses any other top-level field.
 */
export const openAIChatFields: ReadonlySet<string> = new Set([
  'model',
  'messages',
  'stream',
  'stream_options',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'n',
  'stop',
  'presence_penalty',
  'frequency_penalty',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'user',
  'seed',
  'response_format',
  'reasoning_effort',
  'metadata',
  'store',
  'service_tier',
  'modalities',
  'audio',
  'prediction',
  'web_search_options',
  'verbosity',
  'prompt_cache_key',
  'safety_identifier',
  'functions',
  'function_call',
]);
