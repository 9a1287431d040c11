import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';
import { terminalSafe } from '../render/terminal-safe.ts';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Text from a model or a tool made safe to draw: escape sequences and control characters could move the
 * cursor, write the clipboard or change colours and break the layout, so they are shown escaped
 * (terminalSafe, as every other output of keel does); tabs become spaces, newlines stay.
 */
export function sanitize(text: string): string {
  return terminalSafe(text).replace(/\t/g, '    ');
}

/** Columns the text takes on screen (wide characters count 2). */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

/**
 * Splits text into lines of at most `width` columns, breaking at spaces where it can. A line's indentation
 * (code) is kept, also on the rows it wraps onto; the spaces it was broken at are dropped.
 */
export function wrapToWidth(text: string, width: number): string[] {
  const columns = Math.max(1, width);
  return text.split('\n').flatMap((line) => {
    const indent = (/^\s*/.exec(line)?.[0] ?? '').slice(0, Math.floor(columns / 2));
    const rest = line.slice(indent.length);
    if (!rest.trim()) return [''];
    return wrapAnsi(rest, columns - indent.length, { hard: true, trim: true })
      .split('\n')
      .map((row) => `${indent}${row}`);
  });
}

/** The longest start of `text` that fits in `width` columns, with `…` when something was cut. */
export function fitToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const columns = displayWidth(segment);
    if (used + columns > width - 1) break;
    kept += segment;
    used += columns;
  }
  return `${kept}…`;
}

/** The text as grapheme clusters (what the cursor steps over: an emoji is one step). */
export function splitGraphemes(text: string): string[] {
  return Array.from(graphemes.segment(text), ({ segment }) => segment);
}
