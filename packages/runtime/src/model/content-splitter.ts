/**
 * A piece of streamed `content`: answer text, thinking, the inside of a `<tool_call>` block, or what
 * follows Mistral's `[TOOL_CALLS]`; or a correction of what came before: `answer_was_thinking` when a
 * `</think>` no `<think>` opened ends the answer so far, `thinking_was_answer` when an answer that began
 * inside the thinking (ModelProfile.startsInThinking) ended without closing it.
 */
export type ContentPiece = {
  kind: 'text' | 'thinking' | 'tool_call' | 'mistral_calls' | 'answer_was_thinking' | 'thinking_was_answer';
  text: string;
};

const thinkOpen = '<think>';
const thinkClose = '</think>';
const toolOpen = '<tool_call>';
const toolClose = '</tool_call>';
/** Mistral's tool-call token: everything after it is calls (mistral-tool-calls.ts). */
const mistralCalls = '[TOOL_CALLS]';

type State =
  /** Nothing but white space seen: a `<think>` may still open. */
  | 'start'
  | 'thinking'
  /** White space after a closing tag is dropped: it only separated the parts. */
  | 'after-tag'
  | 'text'
  | 'tool_call'
  /** After `[TOOL_CALLS]`: the rest of the answer, read whole at the end. */
  | 'mistral_calls';

/** How long the end of `text` is a beginning of one of `tags` (what must wait for the next piece). */
function partialTagAtEnd(text: string, tags: readonly string[]): number {
  let longest = 0;
  for (const tag of tags) {
    for (let length = Math.min(tag.length - 1, text.length); length > longest; length--) {
      if (text.endsWith(tag.slice(0, length))) longest = length;
    }
  }
  return longest;
}

/** The first of `tags` in `text`: where and which, or undefined. */
function firstTag(text: string, tags: readonly string[]): { at: number; tag: string } | undefined {
  let first: { at: number; tag: string } | undefined;
  for (const tag of tags) {
    const at = text.indexOf(tag);
    if (at >= 0 && (!first || at < first.at)) first = { at, tag };
  }
  return first;
}

/**
 * Splits streamed `content` into answer text, thinking and text tool calls, as pieces arrive: tags may be
 * cut anywhere between pieces, so what could be the start of a tag waits for the next piece. Thinking is
 * `<think>…</think>` at the very start (Qwen3, R1 distills, llama.cpp without a reasoning format), or, for
 * a model whose template opened it in the prompt, everything up to the first `</think>`; a `</think>` that
 * nothing opened also ends thinking, but the answer so far has been passed on by then (`answer_was_thinking`
 * says so). A tool call is a `<tool_call>…</tool_call>` block anywhere in the text (Hermes and Qwen models
 * without a tool parser), and `[TOOL_CALLS]` starts Mistral's calls, which run to the end. White space after
 * a closing tag is dropped; the caller trims the answer around tool calls.
 */
export class ContentSplitter {
  readonly #thinkTags: boolean;
  readonly #toolCalls: boolean;
  #startsInThinking: boolean;
  #state: State;
  #buffer = '';
  /** A `<think>` or `</think>` was read: any later one is the answer's own text. */
  #thought = false;
  /** Thinking that began without a `<think>` and has not ended yet. */
  #implicit = false;

  constructor(options: { thinkTags: boolean; textToolCalls: boolean; startsInThinking?: boolean }) {
    this.#thinkTags = options.thinkTags;
    this.#toolCalls = options.textToolCalls;
    this.#startsInThinking = options.thinkTags && options.startsInThinking === true;
    this.#state = options.thinkTags ? 'start' : 'text';
  }

  /**
   * The server sent reasoning in a field of its own (`reasoning_content`, `reasoning`): it parses the
   * thinking itself, so content that has not begun yet is the answer, whatever the template opened.
   */
  reasoningSeparated(): void {
    if (this.#state === 'start') this.#startsInThinking = false;
  }

  /** The pieces that `content` completes. */
  push(content: string): ContentPiece[] {
    this.#buffer += content;
    const pieces: ContentPiece[] = [];
    while (this.#step(pieces)) {
      // Each step consumes a tag or decides the state; stop when the buffer must wait.
    }
    return pieces.filter((piece) => piece.text !== '' || !['text', 'thinking'].includes(piece.kind));
  }

  /** What is left at the end of the stream: an unclosed `<think>` is thinking, an unclosed block a tool call. */
  finish(): ContentPiece[] {
    const rest = this.#buffer;
    this.#buffer = '';
    switch (this.#state) {
      case 'start':
        // Only white space, or the start of a `<think>` that never came.
        return rest.trim() ? [{ kind: 'text', text: rest }] : [];
      case 'thinking': {
        const pieces: ContentPiece[] = rest ? [{ kind: 'thinking', text: rest }] : [];
        // Thinking the template opened and the model never closed was the answer (or was cut short).
        if (this.#implicit) pieces.push({ kind: 'thinking_was_answer', text: '' });
        return pieces;
      }
      case 'tool_call':
        return [{ kind: 'tool_call', text: rest }];
      case 'mistral_calls':
        return [{ kind: 'mistral_calls', text: rest }];
      case 'after-tag':
        return [];
      case 'text':
        return rest ? [{ kind: 'text', text: rest }] : [];
    }
  }

  /** One step over the buffer; false when it has to wait for more content. */
  #step(pieces: ContentPiece[]): boolean {
    const buffer = this.#buffer;
    switch (this.#state) {
      case 'start': {
        const trimmed = buffer.trimStart();
        if (trimmed === '' || (thinkOpen.startsWith(trimmed) && trimmed.length < thinkOpen.length))
          return false;
        if (trimmed.startsWith(thinkOpen)) {
          this.#buffer = trimmed.slice(thinkOpen.length);
          this.#state = 'thinking';
          this.#thought = true;
        } else if (this.#startsInThinking) {
          this.#buffer = trimmed;
          this.#state = 'thinking';
          this.#implicit = true;
        } else {
          this.#state = 'text';
        }
        return true;
      }
      case 'thinking': {
        const end = buffer.indexOf(thinkClose);
        if (end >= 0) {
          pieces.push({ kind: 'thinking', text: buffer.slice(0, end) });
          this.#buffer = buffer.slice(end + thinkClose.length);
          this.#state = 'after-tag';
          this.#thought = true;
          this.#implicit = false;
          return true;
        }
        const safe = buffer.length - partialTagAtEnd(buffer, [thinkClose]);
        pieces.push({ kind: 'thinking', text: buffer.slice(0, safe) });
        this.#buffer = buffer.slice(safe);
        return false;
      }
      case 'after-tag': {
        this.#buffer = buffer.trimStart();
        if (this.#buffer === '') return false;
        this.#state = 'text';
        return true;
      }
      case 'text': {
        const tags = this.#textTags();
        const found = firstTag(buffer, tags);
        if (found) {
          pieces.push({ kind: 'text', text: buffer.slice(0, found.at) });
          this.#buffer = buffer.slice(found.at + found.tag.length);
          if (found.tag === thinkClose) {
            pieces.push({ kind: 'answer_was_thinking', text: '' });
            this.#thought = true;
            this.#state = 'after-tag';
          } else {
            this.#state = found.tag === toolOpen ? 'tool_call' : 'mistral_calls';
          }
          return true;
        }
        const safe = buffer.length - partialTagAtEnd(buffer, tags);
        pieces.push({ kind: 'text', text: buffer.slice(0, safe) });
        this.#buffer = buffer.slice(safe);
        return false;
      }
      case 'tool_call': {
        const end = buffer.indexOf(toolClose);
        if (end < 0) return false;
        pieces.push({ kind: 'tool_call', text: buffer.slice(0, end) });
        this.#buffer = buffer.slice(end + toolClose.length);
        this.#state = 'after-tag';
        return true;
      }
      case 'mistral_calls':
        return false;
    }
  }

  /** The tags that end answer text: the text tool calls, and a `</think>` while none has been read. */
  #textTags(): string[] {
    const tags = this.#toolCalls ? [toolOpen, mistralCalls] : [];
    if (this.#thinkTags && !this.#thought) tags.push(thinkClose);
    return tags;
  }
}
