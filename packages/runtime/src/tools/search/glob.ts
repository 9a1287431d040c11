import { stat } from 'node:fs/promises';
import { isAbsolute, matchesGlob } from 'node:path';
import { z } from 'zod';
import { InvalidParamsError, ToolError } from '../../errors/index.ts';
import { describeLocation, displayPath } from '../display-path.ts';
import { defineTool } from '../tool.ts';
import { loadIgnoreRules } from './ignore-rules.ts';
import { resolveSearchRoot } from './search-root.ts';
import { walkFiles } from './walk.ts';

/** Paths shown at most. */
export const maxGlobResults = 500;

const schema = z.object({
  pattern: z
    .string()
    .min(1)
    .describe(
      'Glob matched against paths relative to path, e.g. "**/*.ts", "src/*.json" or "**/*.{ts,tsx}".',
    ),
  path: z
    .string()
    .default('.')
    .describe('Directory to search in, relative to the working directory (default: the working directory).'),
});

/**
 * Files are sorted newest first by modification time, as Claude Code's Glob does: the files an agent
 * just touched, or that changed most recently, are usually the ones it wants next.
 */
export const globTool = defineTool({
  name: 'glob',
  traits: { kind: 'search', readOnly: true },
  description:
    'Finds files whose path (relative to path) matches a glob pattern: * matches within one directory, ' +
    '** across directories, {a,b} alternatives. Results are sorted by modification time, newest first. ' +
    `Skips .git, node_modules and what .gitignore files list. Shows at most ${maxGlobResults} files.`,
  schema,
  async execute(ctx, args) {
    if (isAbsolute(args.pattern)) {
      throw new InvalidParamsError(
        'The glob pattern must be relative: put the directory in path and the pattern (e.g. "**/*.ts") in pattern.',
        { pattern: args.pattern },
      );
    }
    const pattern = args.pattern.replace(/^(\.\/)+/, '');
    const root = await resolveSearchRoot(ctx, args.path);
    if (root.isFile)
      throw new ToolError(`${root.shown} is a file; give a directory as path.`, { path: args.path });
    const found: { shown: string; mtime: number }[] = [];
    const walk = walkFiles({
      root: root.path,
      guard: ctx.guard,
      ignore: await loadIgnoreRules(ctx.guard.workdir, root.path),
      signal: ctx.signal,
      maxDepth: patternDepth(pattern),
    });
    for await (const file of walk) {
      if (!matchesGlob(file.rel, pattern)) continue;
      const info = await stat(file.path).catch(() => undefined);
      if (info) found.push({ shown: displayPath(ctx.guard, file.path), mtime: info.mtimeMs });
    }
    if (found.length === 0) return `No files match ${pattern} in ${describeLocation(root.shown)}.`;
    found.sort((a, b) => b.mtime - a.mtime || (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));
    const lines = found.slice(0, maxGlobResults).map((file) => file.shown);
    if (found.length > maxGlobResults) {
      lines.push(
        '',
        `(Showing the ${maxGlobResults} newest of ${found.length} files. Narrow the pattern to see the rest.)`,
      );
    }
    return lines.join('\n');
  },
});

// A pattern without `**` or braces cannot match deeper than its own number of segments: no need to walk further.
function patternDepth(pattern: string): number | undefined {
  if (pattern.includes('**') || pattern.includes('{')) return undefined;
  return pattern.split('/').length;
}
