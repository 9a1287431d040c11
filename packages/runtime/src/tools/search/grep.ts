import { open } from 'node:fs/promises';
import { basename, matchesGlob } from 'node:path';
import { z } from 'zod';
import { InvalidParamsError } from '../../errors/index.ts';
import { describeLocation, displayPath } from '../display-path.ts';
import { maxReadBytes } from '../files/read-file.ts';
import { cutLine, isBinary, splitLines } from '../files/text-file.ts';
import { defineTool, type ToolContext } from '../tool.ts';
import { loadIgnoreRules } from './ignore-rules.ts';
import { requiredLiterals } from './required-literals.ts';
import { findRipgrep, ripgrepNonMatches } from './ripgrep.ts';
import { resolveSearchRoot } from './search-root.ts';
import { listFiles, type WalkEntry, type WalkOptions, walkFiles } from './walk.ts';

/** Matching lines shown at most. */
export const maxGrepMatches = 200;
/** Matching lines are cut to this many characters. */
export const maxGrepLineLength = 300;
/** Larger files are skipped while walking a directory (a file named directly may be up to 10 MB). */
export const maxGrepFileBytes = 1024 * 1024;

const schema = z.object({
  pattern: z
    .string()
    .min(1)
    .describe(
      'JavaScript regular expression to search for, e.g. "function\\s+\\w+". Start with (?i) to ignore case.',
    ),
  path: z
    .string()
    .default('.')
    .describe(
      'File or directory to search, relative to the working directory (default: the working directory).',
    ),
  include: z
    .string()
    .optional()
    .describe('Only search files whose name matches this glob, e.g. "*.ts" or "src/**/*.{ts,tsx}".'),
});

export interface GrepToolOptions {
  /**
   * The ripgrep program that rules out files before they are read: `rg` when it is on the machine
   * (the default, checked once per process), or null to read every file.
   */
  ripgrep?: string | null;
}

/**
 * The grep tool. Files come from the walker (ignore rules, path boundary, order); when ripgrep is on the
 * machine and the pattern has literal text every match must contain, ripgrep first rules out the files
 * without it, and only the rest are read and matched here, with the JavaScript regular expression. The
 * result is the same either way: ripgrep only ever removes files it searched and found no literal in.
 */
export function createGrepTool(options: GrepToolOptions = {}) {
  return defineTool({
    name: 'grep',
    traits: { kind: 'search', readOnly: true },
    description:
      'Searches file contents with a regular expression and returns matching lines as path:line: text. ' +
      'Skips binary files, files over 1 MB, .git, node_modules and what .gitignore files list. ' +
      `Shows at most ${maxGrepMatches} matches.`,
    schema,
    async execute(ctx, args) {
      const { regex, ignoreCase } = compilePattern(args.pattern);
      const root = await resolveSearchRoot(ctx, args.path);
      const include = args.include;
      const files = root.isFile
        ? single(root.path)
        : filterFiles(
            await prefiltered(ctx, root.path, args.pattern, ignoreCase, options),
            (file) => include === undefined || matchesInclude(file.rel, include),
          );
      const results: string[] = [];
      let truncated = false;
      let skippedLarge = 0;
      const maxBytes = root.isFile ? maxReadBytes : maxGrepFileBytes;
      // One test of the whole text (multiline, so ^ and $ still work) rules most files out cheaply.
      const anywhere = new RegExp(regex.source, `${regex.flags}m`);
      search: for await (const { file, text } of readAhead(files, maxBytes)) {
        if (text === tooLarge) skippedLarge++;
        if (typeof text !== 'string' || !anywhere.test(text)) continue;
        const lines = splitLines(text);
        for (let index = 0; index < lines.length; index++) {
          const line = lines[index]!;
          if (!regex.test(line)) continue;
          if (results.length === maxGrepMatches) {
            truncated = true;
            break search;
          }
          results.push(
            `${displayPath(ctx.guard, file.path)}:${index + 1}: ${cutLine(line, maxGrepLineLength)}`,
          );
        }
      }
      const notes: string[] = [];
      if (truncated)
        notes.push(
          `(Stopped at ${maxGrepMatches} matches. Narrow the pattern, path or include to see the rest.)`,
        );
      if (skippedLarge === 1) notes.push('(1 file over 1 MB was not searched.)');
      if (skippedLarge > 1) notes.push(`(${skippedLarge} files over 1 MB were not searched.)`);
      if (results.length === 0) {
        const place = describeLocation(root.shown);
        const where = include === undefined ? place : `${place} (files matching ${include})`;
        return [`No matches for /${args.pattern}/ in ${where}.`, ...notes].join('\n');
      }
      return [...results, ...(notes.length > 0 ? ['', ...notes] : [])].join('\n');
    },
  });
}

export const grepTool = createGrepTool();

/**
 * The files under `root` to read, in walk order: all of them, or (with ripgrep and literals to look for)
 * all but those ripgrep searched and found none of the literals in. The walk and ripgrep run side by side.
 */
async function prefiltered(
  ctx: ToolContext,
  root: string,
  pattern: string,
  ignoreCase: boolean,
  options: GrepToolOptions,
): Promise<AsyncIterable<WalkEntry>> {
  const walk: WalkOptions = {
    root,
    guard: ctx.guard,
    ignore: await loadIgnoreRules(ctx.guard.workdir, root),
    signal: ctx.signal,
  };
  const rg = options.ripgrep === undefined ? await findRipgrep() : options.ripgrep;
  const literals = rg ? requiredLiterals(ignoreCase ? pattern.slice(4) : pattern) : undefined;
  if (!rg || !literals) return walkFiles(walk);
  const [without, files] = await Promise.all([
    ripgrepNonMatches({ rg, root, literals, ignoreCase, maxFileBytes: maxGrepFileBytes, signal: ctx.signal }),
    listFiles(walk),
  ]);
  return toAsync(without ? files.filter((file) => !without.has(file.path)) : files);
}

async function* toAsync<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}

/** Compiles the pattern; a leading `(?i)` (common in other tools) becomes the `i` flag. */
function compilePattern(pattern: string): { regex: RegExp; ignoreCase: boolean } {
  const ignoreCase = pattern.startsWith('(?i)');
  const source = ignoreCase ? pattern.slice(4) : pattern;
  try {
    return { regex: new RegExp(source, ignoreCase ? 'i' : ''), ignoreCase };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new InvalidParamsError(
      `Invalid regular expression: ${reason}. The pattern is a JavaScript regular expression; ` +
        'escape special characters such as ( [ { . * + ? with a backslash to match them literally.',
      { pattern },
    );
  }
}

// A glob without `/` matches the file name at any depth; with `/`, the path relative to the search root.
function matchesInclude(rel: string, include: string): boolean {
  return include.includes('/') ? matchesGlob(rel, include) : matchesGlob(basename(rel), include);
}

async function* filterFiles<T>(files: AsyncIterable<T>, keep: (file: T) => boolean): AsyncGenerator<T> {
  for await (const file of files) if (keep(file)) yield file;
}

// Files read at once: enough to hide disk and syscall latency, few enough to bound memory (16 MB worst case).
const readAheadWindow = 16;

type ReadFile = { file: WalkEntry; text: Awaited<ReturnType<typeof readSearchable>> };

/** Reads files a few at a time ahead of the consumer, yielding them in walk order. */
async function* readAhead(files: AsyncIterable<WalkEntry>, maxBytes: number): AsyncGenerator<ReadFile> {
  const pending: Promise<ReadFile>[] = [];
  for await (const file of files) {
    pending.push(readSearchable(file.path, maxBytes).then((text) => ({ file, text })));
    if (pending.length >= readAheadWindow) yield await pending.shift()!;
  }
  while (pending.length > 0) yield await pending.shift()!;
}

async function* single(path: string): AsyncGenerator<WalkEntry> {
  yield { path, rel: basename(path) };
}

const tooLarge = Symbol('too-large');

/** The file's text, `tooLarge`, or undefined for binary or unreadable files. */
async function readSearchable(path: string, maxBytes: number): Promise<string | typeof tooLarge | undefined> {
  try {
    await using handle = await open(path, 'r');
    if ((await handle.stat()).size > maxBytes) return tooLarge;
    const content = await handle.readFile();
    return isBinary(content) ? undefined : content.toString('utf8');
  } catch {
    return undefined; // vanished or unreadable: skipped like a binary file
  }
}
