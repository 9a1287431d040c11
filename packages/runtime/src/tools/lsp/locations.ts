import { readFile, realpath, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { displayPath } from '../display-path.ts';
import { isBinary } from '../files/text-file.ts';
import type { PathGuard } from '../path-guard.ts';
import type { LspLocation, LspLocationLink, LspRange } from './lsp-types.ts';
import { maxDocumentBytes } from './open-documents.ts';
import { cut, fromLspPosition, textLines } from './positions.ts';

/** Symbol texts longer than this are not quoted (a range over a whole declaration, say). */
const maxSymbolChars = 80;

/**
 * The lines of the files that locations point into, read once per query. Files the server has open are
 * taken as sent to it (its positions refer to that text); others are read from the disk, but only inside
 * the path guard's boundary, as read_file would: a location elsewhere is shown without its line.
 */
export class SourceLines {
  readonly #guard: PathGuard;
  readonly #known: (uri: string) => string | undefined;
  readonly #read = new Map<string, Promise<string[] | undefined>>();

  constructor(guard: PathGuard, known: (uri: string) => string | undefined) {
    this.#guard = guard;
    this.#known = known;
  }

  /** The file's lines, or undefined when it is outside the boundary, missing or not text. */
  linesOf(uri: string): Promise<string[] | undefined> {
    let lines = this.#read.get(uri);
    if (lines === undefined) {
      const known = this.#known(uri);
      lines = known !== undefined ? Promise.resolve(textLines(known)) : this.#readLines(uri);
      this.#read.set(uri, lines);
    }
    return lines;
  }

  async #readLines(uri: string): Promise<string[] | undefined> {
    try {
      const real = await realpath(fileURLToPath(uri));
      if (!this.#guard.isInside(real) && this.#guard.strictReadBoundary) return undefined;
      if ((await stat(real)).size > maxDocumentBytes) return undefined;
      const content = await readFile(real);
      return isBinary(content) ? undefined : textLines(content.toString('utf8'));
    } catch {
      return undefined;
    }
  }
}

/** A definition answer's items as plain locations (a LocationLink's target is the symbol's name). */
export function asLocations(answer: unknown): LspLocation[] {
  const items = Array.isArray(answer) ? answer : answer ? [answer] : [];
  return items.flatMap((item: Partial<LspLocation & LspLocationLink>) => {
    if (typeof item.targetUri === 'string' && item.targetSelectionRange) {
      return [{ uri: item.targetUri, range: item.targetSelectionRange }];
    }
    if (typeof item.uri === 'string' && item.range) return [{ uri: item.uri, range: item.range }];
    return [];
  });
}

/** Locations in file, line and column order, each once. */
export function sortLocations(locations: LspLocation[]): LspLocation[] {
  const seen = new Set<string>();
  return [...locations]
    .sort(
      (a, b) =>
        a.uri.localeCompare(b.uri) ||
        a.range.start.line - b.range.start.line ||
        a.range.start.character - b.range.start.character,
    )
    .filter((location) => {
      const key = `${location.uri}:${location.range.start.line}:${location.range.start.character}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** How a URI is shown: a file by its display path (relative inside the workdir, else absolute). */
export function showUri(guard: PathGuard, uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  try {
    return displayPath(guard, fileURLToPath(uri));
  } catch {
    return uri;
  }
}

/**
 * One location as a line of the answer: `path:line:column`, the symbol's text in backticks, and the
 * line it stands on, e.g. ``src/lib.ts:1:17 `greet`: export function greet(name: string) {``.
 */
export async function describeLocation(
  guard: PathGuard,
  sources: SourceLines,
  location: LspLocation,
): Promise<string> {
  const shown = showUri(guard, location.uri);
  const lines = location.uri.startsWith('file:') ? await sources.linesOf(location.uri) : undefined;
  const lineText = lines?.[location.range.start.line];
  const start = fromLspPosition(location.range.start, lineText);
  const where = `${shown}:${start.line}:${start.column}`;
  if (lineText === undefined) return `${where} (not shown: outside the working directory or unreadable)`;
  const symbol = symbolText(location.range, lineText);
  return `${where}${symbol ? ` \`${symbol}\`` : ''}: ${cut(lineText.trim())}`;
}

/** The text a single-line range covers, when short enough to quote. */
export function symbolText(range: LspRange, lineText: string): string | undefined {
  if (range.start.line !== range.end.line) return undefined;
  const text = lineText.slice(range.start.character, range.end.character);
  return text.length > 0 && text.length <= maxSymbolChars && !text.includes('`') ? text : undefined;
}
