// Notes pinned to a diff's lines (the reviewer's findings): which file of which repository each belongs to.
import { createContext, type ReactNode } from 'react';

export interface DiffNote {
  id: string;
  /** The repository's name as the diff names it; null: any repository with that file. */
  repository: string | null;
  /** The file's path in its repository. */
  file: string;
  /** The line in the file after the change; null (or a line the diff does not show): at the top of the file. */
  line: number | null;
  severity: 'error' | 'warning' | 'info';
  message: string;
}

/** The notes on `path` of `repository`. A reviewer may write the path from the task's folder (`repo/file`). */
export function notesOf(notes: readonly DiffNote[], repository: string, path: string): DiffNote[] {
  return notes.filter((note) => {
    if (note.repository !== null && note.repository !== repository) return false;
    const file = note.file.replace(/^\.?\/+/, '');
    return file === path || file === `${repository}/${path}`;
  });
}

/**
 * What a note offers where it is shown in the diff (Dismiss, Follow up), given by the page that knows the
 * notes' actions; none by default. Here and not in the diff viewer, which is loaded lazily.
 */
export const DiffNoteActions = createContext<((note: DiffNote) => ReactNode) | null>(null);
