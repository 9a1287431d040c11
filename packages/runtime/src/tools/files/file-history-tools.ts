import { diffLines } from 'diff';
import { z } from 'zod';
import { ToolError } from '../../errors/index.ts';
import { displayPath } from '../display-path.ts';
import { defineTool, type ToolContext } from '../tool.ts';
import type { FileChange, FileHistory } from './file-history.ts';
import { deleteFile, type FileTarget, putFile, targetOf, viewFile } from './file-view.ts';

const pathSchema = z.object({
  path: z.string().describe('Path of the file, relative to the working directory or absolute.'),
});

export const undoFileTool = defineTool({
  name: 'undo_file',
  traits: { kind: 'edit', readOnly: false, writesFiles: true, audit: 'file_write' },
  description:
    'Reverts the latest change this run made to a file with write_file, edit_file or patch (a file the ' +
    'run created is deleted). Call it again to go further back; redo_file re-applies.',
  schema: pathSchema,
  async execute(ctx, args) {
    const { history, file } = await target(ctx, args.path);
    const { path, shown } = file;
    const change = history.nextUndo(path);
    if (!change) {
      throw new ToolError(
        `There is no change to ${shown} to undo. list_file_changes shows what was changed.`,
        {
          path: args.path,
        },
      );
    }
    await replaceContent(ctx, file, change.after, change.before, 'undo', change);
    history.mark(change, 'undone');
    const what =
      change.before === null ? 'deleted the file it had created' : 'restored the content before it';
    return `Undid change #${change.id} (${change.tool}) to ${shown}: ${what}.`;
  },
});

export const redoFileTool = defineTool({
  name: 'redo_file',
  traits: { kind: 'edit', readOnly: false, writesFiles: true, audit: 'file_write' },
  description: 'Re-applies the change to a file that undo_file reverted last.',
  schema: pathSchema,
  async execute(ctx, args) {
    const { history, file } = await target(ctx, args.path);
    const { path, shown } = file;
    const change = history.nextRedo(path);
    if (!change) {
      throw new ToolError(`There is no undone change to ${shown} to redo.`, { path: args.path });
    }
    await replaceContent(ctx, file, change.before, change.after, 'redo', change);
    history.mark(change, 'applied');
    return `Redid change #${change.id} (${change.tool}) to ${shown}.`;
  },
});

export const listFileChangesTool = defineTool({
  name: 'list_file_changes',
  traits: { kind: 'read', readOnly: true },
  description:
    'Lists the file changes this run made with write_file, edit_file and patch, oldest first, with ' +
    'their ids and whether they are undone.',
  schema: z.object({}),
  async execute(ctx) {
    const changes = requireHistory(ctx).list();
    if (changes.length === 0) return 'No file changes recorded yet.';
    const lines = changes.map((change) => {
      const state = change.state === 'undone' ? ' [undone]' : '';
      return `#${change.id} ${change.tool}: ${verb(change)} ${displayPath(ctx.guard, change.path)} (${lineStats(change)})${state}`;
    });
    return `File changes, oldest first:\n${lines.join('\n')}`;
  },
});

function requireHistory(ctx: ToolContext): FileHistory {
  if (ctx.history === undefined) {
    throw new ToolError('File history is not kept in this context, so there is nothing to undo or redo.');
  }
  return ctx.history;
}

async function target(ctx: ToolContext, argPath: string) {
  const history = requireHistory(ctx);
  return { history, file: await targetOf(ctx, argPath, 'write') };
}

/** Puts `next` in place of the file's content, if the file (as the tools see it) still holds `expected`. */
async function replaceContent(
  ctx: ToolContext,
  file: FileTarget,
  expected: Uint8Array | null,
  next: Uint8Array | null,
  action: 'undo' | 'redo',
  change: FileChange,
): Promise<void> {
  const state = await viewFile(ctx, file);
  const current = state.kind === 'file' ? await state.content() : null;
  if (state.kind === 'directory' || !sameContent(current, expected)) {
    throw new ToolError(
      `${file.shown} has changed since change #${change.id} (by a command, another tool or a person), so ` +
        `${action === 'undo' ? 'undoing' : 'redoing'} it would lose that. Read the file and edit it instead.`,
      { path: file.argPath, id: change.id },
    );
  }
  if (next === null) await deleteFile(ctx, file, state);
  else await putFile(ctx, file, state, next);
}

function sameContent(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b;
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

function verb(change: FileChange): string {
  if (change.before === null) return 'created';
  if (change.after === null) return 'deleted';
  return change.tool === 'write_file' ? 'overwrote' : 'edited';
}

// Line counts are for orientation; very large files are only sized.
const maxStatBytes = 1024 * 1024;

function lineStats(change: FileChange): string {
  const before = change.before ?? new Uint8Array();
  const after = change.after ?? new Uint8Array();
  if (before.byteLength + after.byteLength > maxStatBytes) return `${after.byteLength} bytes`;
  let added = 0;
  let removed = 0;
  for (const part of diffLines(Buffer.from(before).toString('utf8'), Buffer.from(after).toString('utf8'))) {
    if (part.added) added += part.count ?? 0;
    if (part.removed) removed += part.count ?? 0;
  }
  return `+${added} -${removed} lines`;
}
