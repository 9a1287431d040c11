/** A piece of streamed `content`: answer text, thinking, or the inside of a `<tool_call>` block. */
export type ContentPiece = { kind: 'text' | 'thinking' | 'tool_call'; text: string };

const thinkOpen = '<think>';
const thinkClose = '</think>';
const toolOpen = '<tool_call>';
const toolClose = '</tool_call>';

type State =
  /** Nothing but white space seen: a `<think>` may still open. */
  | 'start'
  | 'thinking'
  /** White space after a closing tag is dropped: it only separated the parts. */
  | 'after-tag'
  | 'text'
  | 'tool_call';

/** How long the end of `text` is a beginning of `tag` (what must wait for the next piece). */
function partialTagAtEnd(text: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length--) {
    if (text.endsWith(tag.slice(0, length))) return length;
  }
  return 0;
}

/**
 * Splits streamed `content` into answer text, thinking and text tool calls, as pieces arrive: tags may be
 * cut anywhere between pieces, so what could be the start of a tag waits for the next piece. Thinking is
 * `<think>…</think>` at the very start (Qwen3, R1 distills, llama.cpp without a reasoning format); a tool
 * call is a `<tool_call>…</tool_call>` block anywhere in the text (Hermes and Qwen models without a tool
 * parser). White space after a closing tag is dropped; the caller trims the answer around tool calls.
 */
export class ContentSplitter {
  readonly #thinkTags: boolean;
  readonly #toolCalls: boolean;
  #state: State;
  #buffer = '';

  constructor(options: { thinkTags: boolean; textToolCalls: boolean }) {
    this.#thinkTags = options.thinkTags;
    this.#toolCalls = options.textToolCalls;
    this.#state = options.thinkTags ? 'start' : 'text';
  }

  /** The pieces that `content` completes. */
  push(content: string): ContentPiece[] {
    this.#buffer += content;
    const pieces: ContentPiece[] = [];
    while (this.#step(pieces)) {
      // Each step consumes a tag or decides the state; stop when the buffer must wait.
    }
    return pieces.filter((piece) => piece.text !== '' || piece.kind === 'tool_call');
  }

  /** What is left at the end of the stream: an unclosed `<think>` is thinking, an unclosed block a tool call. */
  finish(): ContentPiece[] {
    const rest = this.#buffer;
    this.#buffer = '';
    if (this.#state === 'thinking') return rest ? [{ kind: 'thinking', text: rest }] : [];
    if (this.#state === 'tool_call') return [{ kind: 'tool_call', text: rest }];
    if (this.#state === 'after-tag') return [];
    return rest ? [{ kind: 'text', text: rest }] : [];
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
          return true;
        }
        const safe = buffer.length - partialTagAtEnd(buffer, thinkClose);
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
        const start = this.#toolCalls ? buffer.indexOf(toolOpen) : -1;
        if (start >= 0) {
          pieces.push({ kind: 'text', text: buffer.slice(0, start) });
          this.#buffer = buffer.slice(start + toolOpen.length);
          this.#state = 'tool_call';
          return true;
        }
        const safe = buffer.length - (this.#toolCalls ? partialTagAtEnd(buffer, toolOpen) : 0);
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
    }
  }
}
