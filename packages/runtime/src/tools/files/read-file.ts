import { z } from 'zod';
import { ToolError } from '../../errors/index.ts';
import { fileSystemError } from '../fs-errors.ts';
import { defineTool } from '../tool.ts';
import { targetOf, viewFile } from './file-view.ts';
import { cutLine, formatBytes, isBinary, splitLines } from './text-file.ts';

/** Lines returned when the caller gives no `limit`. */
export const defaultReadLines = 2000;
/** Longer lines are cut so one minified line cannot flood the context. */
export const maxReadLineLength = 2000;
/** Larger files are refused outright rather than loaded into memory. */
export const maxReadBytes = 10 * 1024 * 1024;

const schema = z.object({
  path: z.string().describe('Path of the file to read, relative to the working directory or absolute.'),
  offset: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Line number to start reading from (1-based). Use it with limit to read a long file in parts.'),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Maximum number of lines to read (default ${defaultReadLines}).`),
});

export const readFileTool = defineTool({
  name: 'read_file',
  traits: { kind: 'read', readOnly: true },
  description:
    `Reads a text file and returns its lines numbered like \`cat -n\` (number, tab, text). ` +
    `Returns at most ${defaultReadLines} lines by default; use offset and limit for longer files. ` +
    `Lines longer than ${maxReadLineLength} characters are cut. Binary files are not shown.`,
  schema,
  async execute(ctx, args) {
    const target = await targetOf(ctx, args.path, 'read');
    const { shown } = target;
    // The one view of the file: an editor's buffer, unsaved changes included, when the surface has one.
    const file = await viewFile(ctx, target);
    if (file.kind === 'missing') throw fileSystemError({ code: 'ENOENT' }, shown, args.path);
    if (file.kind === 'directory') {
      throw new ToolError(`${shown} is a directory, not a file. Use list_directory to see its contents.`, {
        path: args.path,
      });
    }
    if (file.size > maxReadBytes) {
      throw new ToolError(
        `File too large to read: ${shown} is ${formatBytes(file.size)} (limit ${formatBytes(maxReadBytes)}). ` +
          `Search it with grep, or read parts of it with a shell command such as head or sed -n '100,200p'.`,
        { path: args.path, size: file.size, limit: maxReadBytes },
      );
    }
    const content = await file.content();
    if (isBinary(content)) return `Binary file (${content.length} bytes), not shown: ${shown}`;
    return numberLines(splitLines(content.toString('utf8')), shown, args.offset ?? 1, args.limit);
  },
});

function numberLines(lines: string[], shown: string, offset: number, limit: number | undefined): string {
  if (lines.length === 0) return `(${shown} is empty)`;
  if (offset > lines.length) {
    throw new ToolError(
      `Offset ${offset} is past the end of ${shown}, which has ${lines.length} lines. Use a smaller offset.`,
      { offset, lines: lines.length },
    );
  }
  const end = Math.min(lines.length, offset - 1 + (limit ?? defaultReadLines));
  const body = lines
    .slice(offset - 1, end)
    .map((line, index) => `${String(offset + index).padStart(6)}\t${cutLine(line, maxReadLineLength)}`)
    .join('\n');
  if (end >= lines.length) return body;
  return (
    `${body}\n\n(Showing lines ${offset}-${end} of ${lines.length}. ` +
    `Call read_file with offset=${end + 1} to read more.)`
  );
}
