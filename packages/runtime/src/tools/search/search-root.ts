import { stat } from 'node:fs/promises';
import { displayPath } from '../display-path.ts';
import { fileSystemError } from '../fs-errors.ts';
import type { ToolContext } from '../tool.ts';

/** Where a search tool starts: a checked real path, whether it is a single file, and how it is shown. */
export interface SearchRoot {
  path: string;
  isFile: boolean;
  shown: string;
}

/** Resolves a search tool's `path` argument through the guard (as a read) and checks that it exists. */
export async function resolveSearchRoot(ctx: ToolContext, argPath: string): Promise<SearchRoot> {
  const path = await ctx.guard.resolve(argPath, 'read');
  const shown = displayPath(ctx.guard, path);
  const info = await stat(path).catch((error: unknown) => {
    throw fileSystemError(error, shown, argPath, 'Path');
  });
  return { path, isFile: !info.isDirectory(), shown };
}
