import { applyPatch, parsePatch, type StructuredPatch, type StructuredPatchHunk } from 'diff';
import { z } from 'zod';
import { InvalidParamsError, ToolError } from '../../errors/index.ts';
import { fileSystemError } from '../fs-errors.ts';
import { defineTool } from '../tool.ts';
import { type FileState, putFile, targetOf, viewFile } from './file-view.ts';
import { maxReadBytes } from './read-file.ts';
import { isBinary, splitLines } from './text-file.ts';

const schema = z.object({
  path: z.string().describe('Path of the file to patch, relative to the working directory or absolute.'),
  diff: z
    .string()
    .describe(
      'A unified diff of that one file: optional ---/+++ headers, then hunks starting with ' +
        '"@@ -start,count +start,count @@" whose lines begin with " " (context), "-" or "+".',
    ),
});

export const patchTool = defineTool({
  name: 'patch',
  traits: { kind: 'edit', readOnly: false, writesFiles: true, audit: 'file_edit' },
  description:
    'Applies a unified diff to one file. Every hunk must match the file (context lines exactly, the ' +
    'line numbers may be off); if any hunk does not apply, nothing is changed. A diff whose hunks all ' +
    'start at line 0 creates the file.',
  schema,
  async execute(ctx, args) {
    const patch = parseOneFilePatch(args.diff);
    const target = await targetOf(ctx, args.path, 'write');
    const { path, shown } = target;
    const file = await viewFile(ctx, target);
    const before = await readSource(file, shown, args.path, patch);
    const source = before === null ? '' : before.toString('utf8');
    const patched = applyPatch(source, patch);
    if (patched === false) throw hunkError(source, patch, shown, args.path);
    await putFile(ctx, target, file, patched, true);
    ctx.history?.record({ tool: 'patch', path, before, after: Buffer.from(patched, 'utf8') });
    const lines = patch.hunks.flatMap((hunk) => hunk.lines);
    const added = lines.filter((line) => line.startsWith('+')).length;
    const removed = lines.filter((line) => line.startsWith('-')).length;
    const hunks = patch.hunks.length;
    const verb = before === null ? 'Created' : 'Patched';
    return `${verb} ${shown}: applied ${hunks} ${hunks === 1 ? 'hunk' : 'hunks'} (+${added} -${removed} lines).`;
  },
});

function parseOneFilePatch(diff: string): StructuredPatch {
  let patches: StructuredPatch[];
  try {
    patches = parsePatch(diff);
  } catch (error) {
    throw new InvalidParamsError(`The diff is not a valid unified diff: ${(error as Error).message}`);
  }
  const withHunks = patches.filter((patch) => patch.hunks.length > 0);
  if (withHunks.length === 0) {
    throw new InvalidParamsError(
      'The diff has no hunks: give a unified diff with "@@ -start,count +start,count @@" lines.',
    );
  }
  if (withHunks.length > 1) {
    throw new InvalidParamsError(
      `The diff changes ${withHunks.length} files; patch applies a diff to one file. Call it once per file.`,
    );
  }
  return withHunks[0]!;
}

/** The file's bytes, or null when it does not exist and the diff creates it. */
async function readSource(
  file: FileState,
  shown: string,
  argPath: string,
  patch: StructuredPatch,
): Promise<Buffer | null> {
  if (file.kind === 'missing') {
    if (patch.hunks.every((hunk) => hunk.oldLines === 0)) return null;
    throw fileSystemError({ code: 'ENOENT' }, shown, argPath);
  }
  if (file.kind === 'directory')
    throw new ToolError(`${shown} is a directory, not a file.`, { path: argPath });
  if (file.size > maxReadBytes) throw new ToolError(`${shown} is too large to patch.`, { path: argPath });
  const buffer = await file.content();
  if (isBinary(buffer))
    throw new ToolError(`${shown} is a binary file; patch only changes text.`, { path: argPath });
  return buffer;
}

/** Names the first hunk that does not fit the file and where it differs. */
function hunkError(source: string, patch: StructuredPatch, shown: string, argPath: string): ToolError {
  const total = patch.hunks.length;
  const index = patch.hunks.findIndex((hunk) => applyPatch(source, { ...patch, hunks: [hunk] }) === false);
  if (index === -1) {
    return new ToolError(
      `The hunks of the diff each fit ${shown} but not together (they overlap). The file was not changed.`,
      { path: argPath },
    );
  }
  const hunk = patch.hunks[index]!;
  const header = `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`;
  return new ToolError(
    `Hunk ${index + 1} of ${total} (${header}) does not apply to ${shown}: ${mismatch(source, hunk)} ` +
      'The file was not changed. Read the file and make the diff against its current content.',
    { path: argPath, hunk: index + 1 },
  );
}

function mismatch(source: string, hunk: StructuredPatchHunk): string {
  const fileLines = splitLines(source);
  const expected = hunk.lines
    .filter((line) => line[0] === ' ' || line[0] === '-')
    .map((line) => line.slice(1));
  const start = Math.max(hunk.oldStart - 1, 0);
  for (let offset = 0; offset < expected.length; offset++) {
    const lineNumber = start + offset + 1;
    const actual = fileLines[start + offset];
    if (actual === undefined) {
      return `it expects line ${lineNumber} to be ${JSON.stringify(expected[offset])}, but the file has only ${fileLines.length} lines.`;
    }
    if (actual !== expected[offset]) {
      return `it expects line ${lineNumber} to be ${JSON.stringify(expected[offset])}, but it is ${JSON.stringify(actual)} (and the hunk's lines were not found nearby either).`;
    }
  }
  return 'its lines were not found at or near that position.';
}
