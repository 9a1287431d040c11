import { displayWidth, splitGraphemes } from './text-width.ts';

/** The part of the input line that fits on screen, split around the cursor (drawn inverted). */
export interface InputViewport {
  before: string;
  /** The character under the cursor; a space at the end of the line. */
  at: string;
  after: string;
}

/**
 * Scrolls a long input sideways so the cursor stays visible, keeping as much as possible of what was
 * typed before it. A newline from a paste is drawn as `↵`.
 */
export function inputViewport(text: string, cursor: number, width: number): InputViewport {
  const cells = splitGraphemes(text);
  let cursorCell = 0;
  for (let offset = 0; cursorCell < cells.length && offset < cursor; cursorCell++)
    offset += cells[cursorCell]!.length;
  const shown = cells.map((cell) => (cell === '\n' ? '↵' : cell));
  const at = shown[cursorCell] ?? ' ';
  let room = Math.max(0, width - displayWidth(at));
  let start = cursorCell;
  while (start > 0 && displayWidth(shown[start - 1]!) <= room) room -= displayWidth(shown[--start]!);
  let end = cursorCell + 1;
  while (end < shown.length && displayWidth(shown[end]!) <= room) room -= displayWidth(shown[end++]!);
  return {
    before: shown.slice(start, cursorCell).join(''),
    at,
    after: shown.slice(cursorCell + 1, end).join(''),
  };
}
