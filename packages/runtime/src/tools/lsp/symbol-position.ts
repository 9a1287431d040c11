import { z } from 'zod';
import { InvalidParamsError } from '../../errors/index.ts';
import type { LspTarget } from './lsp-target.ts';
import type { LspPosition } from './lsp-types.ts';
import { symbolColumn, toLspPosition } from './positions.ts';

/** The arguments that place a query on a symbol: the file, its line, and its column or its name. */
export const symbolPositionFields = {
  file_path: z.string().describe('Path of the source file, relative to the working directory or absolute.'),
  line: z.number().int().min(1).describe('Line the symbol is on (1-based, as read_file numbers lines).'),
  column: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("Column of the symbol's first character (1-based, in characters). Give column or symbol."),
  symbol: z
    .string()
    .min(1)
    .optional()
    .describe(
      'The symbol as written on that line (e.g. greet); its first whole-word match gives the column.',
    ),
};

/** Where a query points, in both counts, with the name written there. */
export interface SymbolPosition {
  position: LspPosition;
  line: number;
  column: number;
  /** The name at the position, for the answer's header (empty when the position is not on a name). */
  name: string;
}

/** The position the arguments give, checked against the file's text. */
export function symbolPosition(
  target: LspTarget,
  args: { line: number; column?: number | undefined; symbol?: string | undefined },
): SymbolPosition {
  if (args.column === undefined && args.symbol === undefined) {
    throw new InvalidParamsError('Give column (1-based) or symbol (the name on that line) with line.', {
      line: args.line,
    });
  }
  // Checks the line first, so a bad line is reported as such even when a symbol is given.
  toLspPosition(target.lines, args.line, 1, target.shown);
  const lineText = target.lines[args.line - 1] ?? '';
  const column = args.column ?? symbolColumn(lineText, args.symbol ?? '', args.line, target.shown);
  const position = toLspPosition(target.lines, args.line, column, target.shown);
  return { position, line: args.line, column, name: nameAt(lineText, position.character) };
}

/** The identifier covering a UTF-16 offset of a line, or ''. */
function nameAt(lineText: string, character: number): string {
  const word = /[\p{L}\p{N}_$]/u;
  let start = character;
  let end = character;
  while (start > 0 && word.test(lineText[start - 1] ?? '')) start--;
  while (end < lineText.length && word.test(lineText[end] ?? '')) end++;
  return lineText.slice(start, end);
}
