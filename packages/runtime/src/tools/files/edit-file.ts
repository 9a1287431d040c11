import { z } from 'zod';
import { InvalidParamsError, ToolError } from '../../errors/index.ts';
import { fileSystemError } from '../fs-errors.ts';
import { defineTool } from '../tool.ts';
import { type FileState, putFile, targetOf, viewFile } from './file-view.ts';
import { maxReadBytes } from './read-file.ts';
import { isBinary } from './text-file.ts';

const schema = z.object({
  path: z.string().describe('Path of the file to edit, relative to the working directory or absolute.'),
  old_text: z
    .string()
    .describe(
      'The exact text to replace, including whitespace and indentation. It must occur exactly once ' +
        'unless replace_all is true; include surrounding lines to make it unique.',
    ),
  new_text: z.string().describe('The text to put in its place (must differ from old_text).'),
  replace_all: z.boolean().optional().describe('Replace every occurrence of old_text (default false).'),
});

export const editFileTool = defineTool({
  name: 'edit_file',
  traits: { kind: 'edit', readOnly: false, writesFiles: true, audit: 'file_edit' },
  description:
    'Replaces an exact piece of text in an existing file. old_text must match the file exactly ' +
    '(read the file first) and occur once, unless replace_all is true. To create a file use write_file.',
  schema,
  async execute(ctx, args) {
    if (args.old_text === '') {
      throw new InvalidParamsError(
        'old_text is empty: give the exact text to replace. To create a file use write_file.',
      );
    }
    if (args.old_text === args.new_text) {
      throw new InvalidParamsError('old_text and new_text are identical, so the edit would change nothing.');
    }
    const target = await targetOf(ctx, args.path, 'write');
    const { path, shown } = target;
    const file = await viewFile(ctx, target);
    const original = await editableText(file, shown, args.path);
    const content = original.toString('utf8');
    // A file with CRLF line ends still matches text the model wrote with plain `\n`.
    const crlf = content.includes('\r\n') && !args.old_text.includes('\r');
    const oldText = crlf ? args.old_text.replaceAll('\n', '\r\n') : args.old_text;
    const newText = crlf ? args.new_text.replaceAll('\n', '\r\n') : args.new_text;

    const count = countOccurrences(content, oldText);
    if (count === 0) throw notFound(content, oldText, shown, args.path);
    if (count > 1 && args.replace_all !== true) {
      throw new ToolError(
        `old_text occurs ${count} times in ${shown}. Add more surrounding lines to old_text so it matches ` +
          'exactly one place, or set replace_all to true to replace every occurrence.',
        { path: args.path, occurrences: count },
      );
    }
    // split/join and slicing, not String.replace, so `$&` and friends in new_text stay literal.
    const at = content.indexOf(oldText);
    const updated =
      count > 1
        ? content.split(oldText).join(newText)
        : content.slice(0, at) + newText + content.slice(at + oldText.length);
    await putFile(ctx, target, file, updated);
    ctx.history?.record({ tool: 'edit_file', path, before: original, after: Buffer.from(updated, 'utf8') });
    return `Edited ${shown}: replaced ${count} ${count === 1 ? 'occurrence' : 'occurrences'}.`;
  },
});

/** The file's bytes, once they are known to be text of an editable size. */
async function editableText(file: FileState, shown: string, argPath: string): Promise<Buffer> {
  if (file.kind === 'missing') throw fileSystemError({ code: 'ENOENT' }, shown, argPath);
  if (file.kind === 'directory')
    throw new ToolError(`${shown} is a directory, not a file.`, { path: argPath });
  if (file.size > maxReadBytes)
    throw new ToolError(`${shown} is too large to edit with edit_file.`, { path: argPath });
  const buffer = await file.content();
  if (isBinary(buffer))
    throw new ToolError(`${shown} is a binary file; edit_file only edits text.`, { path: argPath });
  return buffer;
}

function countOccurrences(text: string, part: string): number {
  let count = 0;
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) count++;
  return count;
}

function notFound(content: string, oldText: string, shown: string, path: string): ToolError {
  const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
  const wanted = squash(oldText);
  const hint =
    wanted !== '' && squash(content).includes(wanted)
      ? ' It does match if whitespace is ignored: read the file again and copy the exact indentation and line breaks.'
      : ' Read the file again and copy the exact text, including whitespace.';
  return new ToolError(`old_text was not found in ${shown}.${hint}`, { path });
}
