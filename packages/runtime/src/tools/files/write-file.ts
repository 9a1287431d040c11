import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { KeelError, ToolError } from '../../errors/index.ts';
import { displayPath } from '../display-path.ts';
import { fileSystemError } from '../fs-errors.ts';
import { defineTool } from '../tool.ts';
import { replaceFile } from './replace-file.ts';
import { splitLines } from './text-file.ts';

const schema = z.object({
  path: z.string().describe('Path of the file to write, relative to the working directory or absolute.'),
  content: z.string().describe('The complete new content of the file.'),
});

export const writeFileTool = defineTool({
  name: 'write_file',
  traits: { kind: 'edit', readOnly: false, writesFiles: true, audit: 'file_write' },
  description:
    'Writes a file with the given content, replacing it if it exists and creating missing parent ' +
    'directories. To change part of an existing file, prefer edit_file.',
  schema,
  async execute(ctx, args) {
    const path = await ctx.guard.resolve(args.path, 'write');
    const shown = displayPath(ctx.guard, path);
    const existing = await stat(path).catch(() => undefined);
    if (existing?.isDirectory()) {
      throw new ToolError(`${shown} is a directory; give the path of a file inside it.`, { path: args.path });
    }
    // Only read the old content when a history will keep it (undefined: unreadable, so not undoable).
    const before = ctx.history && existing ? await readFile(path).catch(() => undefined) : null;
    try {
      await replaceFile(ctx.guard, path, args.content, true);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A refusal of the confined write (a folder swapped for a link) is passed on as it is.
      if (KeelError.is(error)) throw error;
      if (code === 'ENOTDIR' || code === 'EEXIST') {
        throw new ToolError(`Cannot write ${shown}: one of its parent paths is a file, not a directory.`, {
          path: args.path,
        });
      }
      throw fileSystemError(error, shown, args.path);
    }
    if (before !== undefined) {
      ctx.history?.record({ tool: 'write_file', path, before, after: Buffer.from(args.content, 'utf8') });
    }
    const bytes = Buffer.byteLength(args.content, 'utf8');
    const lines = splitLines(args.content).length;
    const verb = existing ? 'Overwrote' : 'Created';
    return `${verb} ${shown} (${bytes} bytes, ${lines} ${lines === 1 ? 'line' : 'lines'}).`;
  },
});
