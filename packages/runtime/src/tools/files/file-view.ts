import { readFile, stat } from 'node:fs/promises';
import { KeelError, ToolError } from '../../errors/index.ts';
import { displayPath } from '../display-path.ts';
import { fileSystemError } from '../fs-errors.ts';
import type { ToolContext } from '../tool.ts';
import { removeFile, replaceFile } from './replace-file.ts';

/**
 * The one view of a file that every file tool reads and changes. Without an editor it is the disk. With one
 * (`ctx.editorFiles`, `keel acp`) it is the editor's text, unsaved changes included, so an edit applies to
 * the text the model read: an editor that writes (`writeText`) receives the change, keeping its buffer and
 * undo right; an editor that only reads lets a change go to disk only while its buffer matches the disk,
 * never over unsaved work. A read the editor refuses is an error, never a silent read of the disk.
 */

/** A file a tool works on: its guard-resolved path, how messages show it, and the path the model gave. */
export interface FileTarget {
  readonly path: string;
  readonly shown: string;
  readonly argPath: string;
}

/** What the view shows of a file: nothing, a directory, or a file whose content is read on demand. */
export type FileState =
  | { readonly kind: 'missing' }
  | { readonly kind: 'directory' }
  | { readonly kind: 'file'; readonly size: number; content(): Promise<Buffer> };

/** Resolves the model's path through the guard (confinement, protected paths) for a read or a change. */
export async function targetOf(
  ctx: ToolContext,
  argPath: string,
  access: 'read' | 'write',
): Promise<FileTarget> {
  const path = await ctx.guard.resolve(argPath, access);
  return { path, shown: displayPath(ctx.guard, path), argPath };
}

/** The file as the view shows it now. */
export async function viewFile(ctx: ToolContext, target: FileTarget): Promise<FileState> {
  const info = await stat(target.path).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw fileSystemError(error, target.shown, target.argPath);
  });
  // A directory is never an editor's buffer.
  if (info?.isDirectory()) return { kind: 'directory' };
  const editor = ctx.editorFiles;
  if (!editor) {
    if (!info) return { kind: 'missing' };
    const content = () =>
      readFile(target.path).catch((error: unknown) => {
        throw fileSystemError(error, target.shown, target.argPath);
      });
    return { kind: 'file', size: info.size, content };
  }
  let text: string | undefined;
  try {
    text = await editor.readText(target.path);
  } catch (error) {
    throw editorError('read', target, error);
  }
  if (text === undefined) {
    if (!info) return { kind: 'missing' };
    throw new ToolError(
      `The editor answered that ${target.shown} was not found, although it exists on disk. Keel reads ` +
        'files through the editor and did not read it from disk instead: ask the user to open it in the editor.',
      { path: target.argPath, reason: 'editor_not_found' },
    );
  }
  const content = Buffer.from(text, 'utf8');
  return { kind: 'file', size: content.byteLength, content: async () => content };
}

/**
 * Puts a tool's new content in place of `before` (what `viewFile` showed) through the view: the editor when
 * it writes, else the disk, all or nothing (`replaceFile`); `createParents` makes missing folders on disk.
 */
export async function putFile(
  ctx: ToolContext,
  target: FileTarget,
  before: FileState,
  content: string | Uint8Array,
  createParents = false,
): Promise<void> {
  const editor = ctx.editorFiles;
  if (editor?.writeText) {
    const text = typeof content === 'string' ? content : Buffer.from(content).toString('utf8');
    try {
      await editor.writeText(target.path, text);
    } catch (error) {
      throw editorError('write', target, error);
    }
    return;
  }
  if (editor) await refuseUnsaved(target, before);
  await onDisk(target, () => replaceFile(ctx.guard, target.path, content, createParents));
}

/**
 * Deletes the file (undo of a change that created it). The Agent Client Protocol has no delete, so with an
 * editor the file is deleted on disk, and only while the editor holds no unsaved changes to it.
 */
export async function deleteFile(ctx: ToolContext, target: FileTarget, before: FileState): Promise<void> {
  if (ctx.editorFiles) await refuseUnsaved(target, before);
  await onDisk(target, () => removeFile(ctx.guard, target.path));
}

/** Refuses a change on disk while the editor's text (`before`) differs from it: it would lose unsaved work. */
async function refuseUnsaved(target: FileTarget, before: FileState): Promise<void> {
  const shown = before.kind === 'file' ? await before.content() : null;
  const disk = await readFile(target.path).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return null;
    throw fileSystemError(error, target.shown, target.argPath);
  });
  if (shown === null ? disk === null : disk?.equals(shown)) return;
  throw new ToolError(
    `The editor holds unsaved changes to ${target.shown}, and it lets Keel read files but not write them, so ` +
      `the change was not made (it would overwrite them on disk). Ask the user to save ${target.shown} in the ` +
      'editor, then read it again and retry.',
    { path: target.argPath, reason: 'unsaved_changes' },
  );
}

async function onDisk(target: FileTarget, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    // A refusal of the confined write (a folder swapped for a link) is passed on as it is.
    if (KeelError.is(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR' || code === 'EEXIST') {
      throw new ToolError(
        `Cannot write ${target.shown}: one of its parent paths is a file, not a directory.`,
        {
          path: target.argPath,
        },
      );
    }
    throw fileSystemError(error, target.shown, target.argPath);
  }
}

/** The editor's refusal, with its own words, as the model sees it. */
function editorError(action: 'read' | 'write', target: FileTarget, error: unknown): KeelError {
  if (KeelError.is(error)) return error;
  const reason = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
  const after =
    action === 'read'
      ? 'Keel reads files through the editor and did not read it from disk instead.'
      : 'The file was not changed.';
  return new ToolError(
    `The editor refused to ${action} ${target.shown}: ${reason}. ${after} Ask the user why the editor refuses, or work on another file.`,
    { path: target.argPath, reason: `editor_${action}_refused` },
    { cause: error },
  );
}
