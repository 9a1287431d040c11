import type OpenAI from 'openai';
import { type ContentPiece, ContentSplitter } from './content-splitter.ts';
import { JsonAnswerHold } from './json-tool-calls.ts';
import { parseMistralToolCalls } from './mistral-tool-calls.ts';
import type { ModelProfile } from './profiles.ts';
import { parseTextToolCall, type TextToolCall } from './text-tool-calls.ts';
import { ToolCallAssembly, type ToolCallPart } from './tool-call-assembly.ts';
import type { TurnHandlers, TurnResult } from './turn-types.ts';

/** A streamed delta as servers send it: OpenAI's, plus the reasoning fields others add. */
type StreamDelta = {
  content?: string | null;
  /** DeepSeek, vLLM before 0.11, llama.cpp's `deepseek` reasoning format. */
  reasoning_content?: string | null;
  /** Ollama, vLLM 0.11 and later, OpenRouter. */
  reasoning?: string | null;
  tool_calls?: ToolCallPart[] | null;
};

/**
 * Assembles one streamed turn into a TurnResult and passes text and thinking on as they come, whatever
 * the server's dialect (docs/models.md): reasoning from `reasoning_content`, `reasoning` or `<think>` is
 * thinking and never answer text; tool calls come from `tool_calls` in any of the shapes servers stream
 * them, or, when the profile reads them, from text: `<tool_call>` blocks, Mistral's `[TOOL_CALLS]`, an
 * answer that is nothing but JSON calls; a turn with tool calls finishes as one whatever `finish_reason`
 * said.
 */
export class TurnAssembler {
  readonly #handlers: TurnHandlers;
  readonly #toolNames: ReadonlySet<string>;
  readonly #content: ContentSplitter;
  /** Answer text that may be JSON calls waits here until it is known not to be. */
  readonly #hold: JsonAnswerHold;
  readonly #calls = new ToolCallAssembly();
  readonly #textCalls: TextToolCall[] = [];
  #text = '';
  /** Reasoning from a field of the delta (`reasoning_content`, `reasoning`). */
  #reasoning = '';
  /** Thinking read from `content` (`<think>`): what moves if it turns out to have been the answer. */
  #contentThinking = '';
  #usage: TurnResult['usage'] = { input_tokens: 0, output_tokens: 0 };
  #finishReason = 'stop';

  constructor(profile: ModelProfile, toolNames: ReadonlySet<string>, handlers: TurnHandlers) {
    this.#handlers = handlers;
    this.#toolNames = toolNames;
    this.#content = new ContentSplitter(profile);
    this.#hold = new JsonAnswerHold(toolNames, profile.textToolCalls);
  }

  async add(chunk: OpenAI.Chat.Completions.ChatCompletionChunk): Promise<void> {
    if (chunk.usage) {
      this.#usage = { input_tokens: chunk.usage.prompt_tokens, output_tokens: chunk.usage.completion_tokens };
    }
    const choice = chunk.choices[0];
    if (!choice) return;
    const delta = choice.delta as StreamDelta;
    // A server sending both names of the field sends the same text twice: read one.
    const reasoning = delta.reasoning_content || delta.reasoning;
    if (reasoning) {
      this.#content.reasoningSeparated();
      this.#reasoning += reasoning;
      await this.#handlers.onThinking?.(reasoning);
    }
    if (delta.content) await this.#pieces(this.#content.push(delta.content));
    for (const part of delta.tool_calls ?? []) this.#calls.add(part);
    if (choice.finish_reason) this.#finishReason = choice.finish_reason;
  }

  async finish(): Promise<TurnResult> {
    await this.#pieces(this.#content.finish());
    const answer = this.#hold.finish();
    this.#textCalls.push(...answer.calls);
    await this.#show(answer.text);
    const truncated = this.#finishReason === 'length';
    const toolCalls = [...this.#calls.calls(truncated)];
    if (this.#textCalls.length > 0) {
      // Text calls get their ids (and repairs) the same way, after any structured ones.
      const assembly = new ToolCallAssembly();
      for (const call of this.#textCalls)
        assembly.add({ function: { name: call.name, arguments: call.arguments } });
      const taken = new Set(toolCalls.map((call) => call.id));
      toolCalls.push(...assembly.calls(truncated).filter((call) => !taken.has(call.id)));
      // The white space that stood around the blocks is not part of the answer.
      this.#text = this.#text.trim();
    }
    // Some servers say "stop" with tool calls (llama.cpp, older Ollama): the calls are what counts.
    const finishReason =
      toolCalls.length > 0 && this.#finishReason === 'stop' ? 'tool_calls' : this.#finishReason;
    const reasoning = this.#reasoning + this.#contentThinking;
    return { text: this.#text, reasoning, toolCalls, usage: this.#usage, finishReason };
  }

  async #pieces(pieces: ContentPiece[]): Promise<void> {
    for (const piece of pieces) {
      switch (piece.kind) {
        case 'thinking':
          this.#contentThinking += piece.text;
          await this.#handlers.onThinking?.(piece.text);
          break;
        case 'text':
          await this.#answer(piece.text);
          break;
        case 'tool_call': {
          const call = parseTextToolCall(piece.text, this.#toolNames);
          // A block that is no call to an offered tool was the model's own text: shown as it was written.
          if (call) this.#textCalls.push(call);
          else await this.#answer(`<tool_call>${piece.text}</tool_call>`);
          break;
        }
        case 'mistral_calls': {
          const { calls, text } = parseMistralToolCalls(piece.text, this.#toolNames);
          this.#textCalls.push(...calls);
          await this.#answer(text);
          break;
        }
        case 'answer_was_thinking': {
          // A `</think>` nothing opened: the answer so far was thinking. What was shown stays shown.
          const held = this.#hold.restart();
          this.#contentThinking += this.#text + held;
          this.#text = '';
          if (held) await this.#handlers.onThinking?.(held);
          break;
        }
        case 'thinking_was_answer': {
          // Thinking the template opened was never closed: the answer, unless it was cut off mid-thought.
          if (this.#finishReason === 'length') break;
          const text = this.#contentThinking;
          this.#contentThinking = '';
          await this.#answer(text);
          break;
        }
      }
    }
  }

  /** Answer text, through the hold for JSON calls. */
  async #answer(text: string): Promise<void> {
    if (text) await this.#show(this.#hold.push(text));
  }

  async #show(text: string): Promise<void> {
    if (!text) return;
    this.#text += text;
    await this.#handlers.onText?.(text);
  }
}
