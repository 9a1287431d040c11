import type { WriteStream } from 'node:tty';
import { styleText } from 'node:util';

// The model's answer, rendered for a terminal that shows colour: headings, emphasis, code, lists, quotes and
// links lose their Markdown marks and get styles instead. It works a line at a time, so a streamed answer
// is rendered as each line completes. Input is already terminal-safe (terminalSafe): the only escape
// sequences in the output are the styles added here.

type Format = Parameters<typeof styleText>[0];

/**
 * `text` styled, with styles that nest: a span inside that ends the same style (bold in a bold heading)
 * turns it back on. The caller decided the stream shows colour (rendersMarkdown): no check per span.
 */
function style(format: Format, text: string): string {
  if (Array.isArray(format)) return format.reduceRight((inner, one) => style(one, inner), text);
  const [open = '', close = ''] = styleText(format, '\0', { validateStream: false }).split('\0');
  return `${open}${text.replaceAll(close, `${close}${open}`)}${close}`;
}

/**
 * Whether Markdown is rendered on `stream`: a terminal that shows colour. Piped output, NO_COLOR and
 * TERM=dumb get the answer as the model wrote it: without styles, the Markdown marks are the formatting.
 */
export function rendersMarkdown(stream: NodeJS.WritableStream): boolean {
  const tty = stream as Partial<WriteStream>;
  return tty.isTTY === true && tty.hasColors?.() === true;
}

/** A streamed answer, rendered line by line. */
export interface MarkdownStream {
  /** Adds terminal-safe text; each completed line is rendered and written, a partial one waits. */
  push(text: string): void;
  /** Writes the partial last line, if any, with its newline; a code block still open is closed. */
  end(): void;
  /** Whether a partial line waits for its end. */
  readonly pending: boolean;
}

export function createMarkdownStream(write: (text: string) => void): MarkdownStream {
  const state: BlockState = { fence: null };
  let partial = '';
  return {
    push(text) {
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      let rendered = '';
      for (const line of lines) {
        const shown = renderLine(line, state);
        if (shown !== null) rendered += `${shown}\n`;
      }
      if (rendered !== '') write(rendered);
    },
    end() {
      const shown = partial === '' ? null : renderLine(partial, state);
      partial = '';
      state.fence = null;
      if (shown !== null) write(`${shown}\n`);
    },
    get pending() {
      return partial !== '';
    },
  };
}

/** A whole terminal-safe text rendered at once (an answer that was not streamed). */
export function renderMarkdown(text: string): string {
  let rendered = '';
  const stream = createMarkdownStream((chunk) => (rendered += chunk));
  stream.push(text);
  stream.end();
  return rendered;
}

interface BlockState {
  /** The open code fence (its character and length), while inside a fenced code block. */
  fence: { char: string; length: number } | null;
}

const fencePattern = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;
const headingPattern = /^ {0,3}(#{1,6})(?:\s+(.*?))?(?:\s+#+)?\s*$/;
const rulePattern = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const quotePattern = /^ {0,3}>\s?(.*)$/;
const bulletPattern = /^(\s*)[-*+]\s+(?:\[([ xX])\]\s+)?(.*)$/;
const numberedPattern = /^(\s*)(\d{1,9}[.)])\s+(.*)$/;

/** One line, rendered; null for a line that only marks structure (a code fence). */
function renderLine(line: string, state: BlockState): string | null {
  const fence = fencePattern.exec(line);
  if (state.fence) {
    const closes =
      fence?.[1]?.[0] === state.fence.char && fence[1].length >= state.fence.length && fence[2] === '';
    if (closes) {
      state.fence = null;
      return null;
    }
    return style('cyan', line);
  }
  if (fence?.[1]) {
    state.fence = { char: fence[1][0]!, length: fence[1].length };
    return null;
  }
  const heading = headingPattern.exec(line);
  if (heading) {
    const text = renderInline(heading[2] ?? '');
    return heading[1]!.length === 1 ? style(['bold', 'underline'], text) : style('bold', text);
  }
  if (rulePattern.test(line)) return style('dim', '─'.repeat(40));
  const quote = quotePattern.exec(line);
  if (quote) return `${style('dim', '│')} ${renderInline(quote[1] ?? '')}`;
  const bullet = bulletPattern.exec(line);
  if (bullet) {
    const box = bullet[2] === undefined ? '' : bullet[2] === ' ' ? '☐ ' : '☑ ';
    return `${bullet[1]}${style('dim', '•')} ${box}${renderInline(bullet[3] ?? '')}`;
  }
  const numbered = numberedPattern.exec(line);
  if (numbered) return `${numbered[1]}${style('dim', numbered[2]!)} ${renderInline(numbered[3] ?? '')}`;
  return renderInline(line);
}

// Spans whose insides are not Markdown (code, a link's URL), or are rendered apart (a link's text).
// The code span comes first in the joined pattern: its backreference `\1` counts on being group 1.
const codeSpan = /(`+)(?!`)(.+?)(?<!`)\1(?!`)/;
const link = /(!?)\[([^\]]*)\]\(\s*<?([^\s()<>]+)>?(?:\s+"[^"]*")?\s*\)/;
const autolink = /<((?:https?|mailto):[^\s<>]+)>/;
const escaped = /\\([!-/:-@[-`{-~])/;
const protectedSpans = new RegExp(
  [codeSpan, link, autolink, escaped].map((pattern) => pattern.source).join('|'),
  'g',
);

// Emphasis, innermost marks first: a style's escape codes hold no `*`, `_` or `~` to confuse the next.
const emphasis: [RegExp, Format][] = [
  [/\*\*\*(?=\S)(.+?)(?<=\S)\*\*\*/g, ['bold', 'italic']],
  [/(?<![\w*])\*(?![\s*])(.+?)(?<![\s*])\*(?![\w*])/g, 'italic'],
  [/(?<![\w_])_(?![\s_])(.+?)(?<![\s_])_(?![\w_])/g, 'italic'],
  [/\*\*(?=\S)(.+?)(?<=\S)\*\*/g, 'bold'],
  [/(?<!\w)__(?=\S)(.+?)(?<=\S)__(?![\w])/g, 'bold'],
  [/~~(?=\S)(.+?)(?<=\S)~~/g, 'strikethrough'],
];

/** Inline Markdown of one line: code spans, links (text and URL), emphasis, backslash escapes. */
function renderInline(text: string): string {
  // Protected spans are set aside behind placeholders, so emphasis may enclose them but never reach inside.
  const spans: string[] = [];
  const hold = (rendered: string) => `\uE000${spans.push(rendered) - 1}\uE001`;
  let line = text.replace(protectedSpans, (whole, ...groups: (string | undefined)[]) => {
    const [ticks, code, bang, label, url, auto, char] = groups;
    if (ticks !== undefined && code !== undefined) return hold(style('cyan', trimCode(code)));
    if (url !== undefined) return hold(linkText(label ?? '', url, bang === '!'));
    if (auto !== undefined) return hold(style('underline', auto));
    return char !== undefined ? hold(char) : whole;
  });
  for (const [pattern, format] of emphasis) {
    line = line.replace(pattern, (_whole, inner: string) => style(format, inner));
  }
  return line.replace(/\uE000(\d+)\uE001/g, (whole, index: string) => spans[Number(index)] ?? whole);
}

/** `[text](url)` as `text (url)`; the URL alone when it is the text. */
function linkText(label: string, url: string, image: boolean): string {
  const shownUrl = style('underline', url);
  if (label === '' || label === url) return image ? `[image] ${shownUrl}` : shownUrl;
  return `${image ? '[image] ' : ''}${renderInline(label)} (${shownUrl})`;
}

/** A code span's content: one space on each side is stripped when both are there (CommonMark). */
function trimCode(code: string): string {
  return code.length > 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim() !== ''
    ? code.slice(1, -1)
    : code;
}
