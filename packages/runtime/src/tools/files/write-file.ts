import { z } from 'zod';
import { ToolError } from '../../errors/index.ts';
import { defineTool } from '../tool.ts';
import { putFile, targetOf, viewFile } from './file-view.ts';
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
    const target = await targetOf(ctx, args.path, 'write');
    const { path, shown } = target;
    const file = await viewFile(ctx, target);
    if (file.kind === 'directory') {
      throw new ToolError(`${shown} is a directory; give the path of a file inside it.`, { path: args.path });
    }
    // Only read the old content when a history will keep it (undefined: unreadable, so not undoable).
    const before = ctx.history && file.kind === 'file' ? await file.content().catch(() => undefined) : null;
    await putFile(ctx, target, file, args.content, true);
    if (before !== undefined) {
      ctx.history?.record({ tool: 'write_file', path, before, after: Buffer.from(args.content, 'utf8') });
    }
    const bytes = Buffer.byteLength(args.content, 'utf8');
    const lines = splitLines(args.content).length;
    const verb = file.kind === 'file' ? 'Overwrote' : 'Created';
    return `${verb} ${shown} (${bytes} bytes, ${lines} ${lines === 1 ? 'line' : 'lines'}).`;
  },
});
