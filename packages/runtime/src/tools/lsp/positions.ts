import { ToolError } from '../../errors/index.ts';
import type { LspPosition } from './lsp-types.ts';

/**
 * Positions as the model sees them (1-based line, 1-based column counted in characters, as read_file
 * shows a line) and as LSP counts them (0-based line, 0-based UTF-16 offset). They differ only past a
 * character outside the Basic Multilingual Plane (an emoji, say), which is one character but two units.
 */

/** A text's lines for positions: split at `\n`, a `\r` before it dropped. */
export function textLines(text: string): string[] {
  return text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/** How many lines the model sees (read_file's count): a final newline does not start another. */
export function visibleLineCount(lines: readonly string[]): number {
  return Math.max(1, lines.at(-1) === '' ? lines.length - 1 : lines.length);
}

/** The model's line and column on `lines` as an LSP position; a ToolError when it is not on the text. */
export function toLspPosition(
  lines: readonly string[],
  line: number,
  column: number,
  shown: string,
): LspPosition {
  const count = visibleLineCount(lines);
  if (line > count) {
    throw new ToolError(
      `Line ${line} is past the end of ${shown}, which has ${count} ${count === 1 ? 'line' : 'lines'}. ` +
        'Read the file with read_file to find the line.',
      { line, lines: count },
    );
  }
  const text = lines[line - 1] ?? '';
  const characters = [...text];
  if (column > characters.length + 1) {
    throw new ToolError(
      `Column ${column} is past the end of line ${line} of ${shown}, which has ${characters.length} ` +
        `characters: ${JSON.stringify(cut(text))}. Give the column of the symbol's first character, or give ` +
        'symbol instead of column.',
      { line, column, length: characters.length },
    );
  }
  return { line: line - 1, character: characters.slice(0, column - 1).join('').length };
}

/** An LSP position as the model's 1-based line and column; without the line's text, UTF-16 is assumed. */
export function fromLspPosition(
  position: LspPosition,
  lineText: string | undefined,
): { line: number; column: number } {
  const column =
    lineText === undefined ? position.character + 1 : [...lineText.slice(0, position.character)].length + 1;
  return { line: position.line + 1, column };
}

/**
 * The 1-based column where `symbol` first stands on the line as a whole word (not inside a longer name),
 * or a ToolError showing the line.
 */
export function symbolColumn(lineText: string, symbol: string, line: number, shown: string): number {
  const wordChar = /[\p{L}\p{N}_$]/u;
  for (let at = lineText.indexOf(symbol); at !== -1; at = lineText.indexOf(symbol, at + 1)) {
    const before = lineText.slice(0, at);
    const after = lineText.slice(at + symbol.length);
    const startsWord = !wordChar.test(symbol.at(0) ?? '') || !wordChar.test([...before].at(-1) ?? '');
    const endsWord = !wordChar.test(symbol.at(-1) ?? '') || !wordChar.test([...after].at(0) ?? '');
    if (startsWord && endsWord) return [...before].length + 1;
  }
  throw new ToolError(
    `'${symbol}' does not appear as a name on line ${line} of ${shown}: ${JSON.stringify(cut(lineText))}. ` +
      'Check the line number with read_file or grep.',
    { line, symbol },
  );
}

/** A line shortened for a message. */
export function cut(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
