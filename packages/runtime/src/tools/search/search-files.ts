import { z } from 'zod';
import { ToolError } from '../../errors/index.ts';
import { describeLocation, displayPath } from '../display-path.ts';
import { defineTool } from '../tool.ts';
import { fuzzyScore } from './fuzzy-score.ts';
import { loadIgnoreRules } from './ignore-rules.ts';
import { resolveSearchRoot } from './search-root.ts';
import { walkFiles } from './walk.ts';

/** Best matches shown. */
export const maxSearchResults = 50;

const schema = z.object({
  query: z
    .string()
    .min(1)
    .describe(
      'Characters of the file name or path to look for, in order but not necessarily adjacent, e.g. "pathgrd".',
    ),
  path: z
    .string()
    .default('.')
    .describe('Directory to search in, relative to the working directory (default: the working directory).'),
});

export const searchFilesTool = defineTool({
  name: 'search_files',
  traits: { kind: 'search', readOnly: true },
  description:
    'Fuzzy file-name search, like an editor\'s "go to file": finds files whose path contains the query\'s ' +
    'characters in order (case-insensitive), best matches first (whole words, file names and short paths ' +
    `rank higher). Skips .git, node_modules and what .gitignore files list. Shows the best ${maxSearchResults}.`,
  schema,
  async execute(ctx, args) {
    const root = await resolveSearchRoot(ctx, args.path);
    if (root.isFile)
      throw new ToolError(`${root.shown} is a file; give a directory as path.`, { path: args.path });
    const ignore = await loadIgnoreRules(ctx.guard.workdir, root.path);
    const scored: { rel: string; path: string; score: number }[] = [];
    for await (const file of walkFiles({ root: root.path, guard: ctx.guard, ignore, signal: ctx.signal })) {
      const score = fuzzyScore(args.query, file.rel);
      if (score !== null) scored.push({ ...file, score });
    }
    if (scored.length === 0) return `No files match "${args.query}" in ${describeLocation(root.shown)}.`;
    scored.sort((a, b) => b.score - a.score || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
    const lines = scored.slice(0, maxSearchResults).map((file) => displayPath(ctx.guard, file.path));
    if (scored.length > maxSearchResults) {
      lines.push(
        '',
        `(Showing the best ${maxSearchResults} of ${scored.length} matches. Refine the query to narrow them.)`,
      );
    }
    return lines.join('\n');
  },
});
