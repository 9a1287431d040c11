import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { ToolError } from '../../errors/index.ts';
import { displayPath } from '../display-path.ts';
import { fileSystemError } from '../fs-errors.ts';
import { defineTool } from '../tool.ts';

/** Entries shown at most; the rest are counted. */
export const maxListEntries = 1000;

const schema = z.object({
  path: z
    .string()
    .default('.')
    .describe(
      'Directory to list, relative to the working directory or absolute (default: the working directory).',
    ),
});

export const listDirectoryTool = defineTool({
  name: 'list_directory',
  traits: { kind: 'read', readOnly: true },
  description:
    'Lists the entries of one directory (not recursive): directories first, marked with a trailing /, ' +
    `then files, each group sorted by name. Shows at most ${maxListEntries} entries.`,
  schema,
  async execute(ctx, args) {
    const path = await ctx.guard.resolve(args.path, 'read');
    const shown = displayPath(ctx.guard, path);
    let entries: Dirent[];
    try {
      entries = await readdir(path, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') {
        throw new ToolError(`${shown} is a file, not a directory. Use read_file to read it.`, {
          path: args.path,
        });
      }
      throw fileSystemError(error, shown, args.path, 'Directory');
    }
    if (entries.length === 0) return `(${shown} is empty)`;
    const named = await Promise.all(
      entries.map(async (entry) => ({ name: entry.name, dir: await isDirectory(path, entry) })),
    );
    named.sort((a, b) => (a.dir !== b.dir ? (a.dir ? -1 : 1) : compareNames(a.name, b.name)));
    const lines = named.slice(0, maxListEntries).map((entry) => (entry.dir ? `${entry.name}/` : entry.name));
    if (named.length > maxListEntries) {
      lines.push(`... ${named.length - maxListEntries} more entries not shown (${named.length} in total).`);
    }
    return lines.join('\n');
  },
});

// A symbolic link is shown as what it points to; a broken one as a file.
async function isDirectory(dir: string, entry: Dirent): Promise<boolean> {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  return (await stat(join(dir, entry.name)).catch(() => undefined))?.isDirectory() ?? false;
}

// Case-insensitive first so `README` sits beside `readme.txt`, then by code point for a stable order.
function compareNames(a: string, b: string): number {
  const lowerA = a.toLowerCase();
  const lowerB = b.toLowerCase();
  if (lowerA !== lowerB) return lowerA < lowerB ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
