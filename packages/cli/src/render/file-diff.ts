import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parsePatch, structuredPatch } from 'diff';

// What a file tool changed, as unified-diff lines (` context`, `-removed`, `+added`; `⋯` between hunks),
// computed from the call's arguments: the event stream carries no diff. Shown only once the tool's result
// says it applied the change, so a failed or rejected call shows none. Hunks carry no line numbers:
// an edit_file's old_text is a piece of the file, whose place in it the arguments do not tell.

/** Separates two hunks of one change. */
export const hunkGap = '⋯';

/** Beyond this many changed lines, the diff is not worked out (a rewrite of a large file): the result says enough. */
const maxEditLength = 2000;
/** The largest file read before write_file replaces it. */
const maxSnapshotBytes = 1024 * 1024;

/**
 * The diff lines of a file tool's call, or undefined when there is nothing to show: another tool, a call
 * that failed or was not run, or an overwrite whose earlier content is unknown (`before`).
 */
export function fileChangeLines(
  tool: string,
  args: Record<string, unknown>,
  result: string,
  before?: string,
): string[] | undefined {
  const text = (name: string) => (typeof args[name] === 'string' ? args[name] : undefined);
  switch (tool) {
    case 'edit_file': {
      const [oldText, newText] = [text('old_text'), text('new_text')];
      if (!result.startsWith('Edited ') || oldText === undefined || newText === undefined) return undefined;
      return changedLines(oldText, newText);
    }
    case 'write_file': {
      const content = text('content');
      if (content === undefined) return undefined;
      if (result.startsWith('Created ')) return addedLines(content);
      if (result.startsWith('Overwrote ') && before !== undefined) return changedLines(before, content);
      return undefined;
    }
    case 'patch': {
      const diff = text('diff');
      if (diff === undefined || !/^(Created|Patched) /.test(result)) return undefined;
      return patchLines(diff);
    }
    default:
      return undefined;
  }
}

/**
 * The text of the file write_file is about to replace, read when its call is announced (the tool runs
 * right after): the event stream does not keep it, and the overwrite's diff needs it. Only a run executed
 * in this process can be read this way; a replay finds the file already replaced.
 */
export function contentBeforeWrite(workdir: string, path: unknown): string | undefined {
  if (typeof path !== 'string') return undefined;
  try {
    const file = resolve(workdir, path);
    // Not a FIFO or a device, which a read would block on or never finish.
    const info = statSync(file);
    if (!info.isFile() || info.size > maxSnapshotBytes) return undefined;
    const content = readFileSync(file, 'utf8');
    return content.includes('\0') ? undefined : content;
  } catch {
    return undefined;
  }
}

/** Line diff of two texts with three lines of context; undefined when it is too large to work out. */
function changedLines(before: string, after: string): string[] | undefined {
  // Both end in a newline, so a missing one at the end is not reported as a change of its own.
  const ended = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);
  const patch = structuredPatch('', '', ended(before), ended(after), undefined, undefined, {
    context: 3,
    maxEditLength,
  });
  return patch && hunkLines(patch.hunks);
}

function addedLines(content: string): string[] {
  if (content === '') return [];
  return (content.endsWith('\n') ? content.slice(0, -1) : content).split('\n').map((line) => `+${line}`);
}

/** The hunks of a patch tool's diff, as it gave them. */
function patchLines(diff: string): string[] | undefined {
  try {
    return hunkLines(parsePatch(diff).flatMap((patch) => patch.hunks));
  } catch {
    return undefined;
  }
}

function hunkLines(hunks: readonly { lines: string[] }[]): string[] {
  return hunks.flatMap((hunk, index) => [
    ...(index > 0 ? [hunkGap] : []),
    // `\ No newline at end of file` is about the file's last byte, not a line of the change.
    ...hunk.lines.filter((line) => !line.startsWith('\\')),
  ]);
}

/** How a diff line is painted: by its mark. */
export type DiffPaint = (kind: 'added' | 'removed' | 'other', text: string) => string;

/**
 * Diff lines ready to print, indented under the tool's result: at most `limit` of them, then how many more
 * there are. Each line is painted by its mark (red, green); the text is still the model's and goes through
 * `paint`, which makes it terminal-safe.
 */
export function formatDiff(lines: readonly string[], limit: number, paint: DiffPaint): string {
  const shown = lines.slice(0, limit).map((line) => {
    // A CRLF file's lines keep their CR: it would end the line on the terminal.
    const text = `    ${line.replace(/\r$/, '')}`;
    return paint(line.startsWith('+') ? 'added' : line.startsWith('-') ? 'removed' : 'other', text);
  });
  const more = lines.length - shown.length;
  if (more > 0) shown.push(paint('other', `    … ${more} more ${more === 1 ? 'line' : 'lines'}`));
  return shown.join('\n');
}
