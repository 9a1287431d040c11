import { createTwoFilesPatch } from 'diff';
import { memo, type ReactNode, useCallback, useMemo, useState } from 'react';
import {
  computeNewLineNumber,
  Diff,
  type FileData,
  getChangeKey,
  Hunk,
  parseDiff,
  type ViewType,
} from 'react-diff-view';
import 'react-diff-view/style/index.css';
import type { FileChange, RepositoryDiff } from '../api/diff-types.ts';
import type { ToolEdit } from '../api/tool-edit.ts';
import { type DiffNote, notesOf } from './diff-notes.ts';
import './diff-view.css';
import { type FileEntry, fileEntries, isLarge } from './patch-files.ts';
import { Badge } from './status.tsx';

/**
 * Each repository's changes, file by file, unified or split. Loaded on first use. Every file of the
 * service's list is shown, also those past the patch's 1 MiB cut; a large diff starts with its files
 * collapsed (a light header row each), and a file's part of the patch is parsed when it is opened.
 * `notes` (the reviewer's findings) show under the line they are about, or at the top of their file; a
 * file with a note starts open.
 */
export default function DiffView({
  diffs,
  notes = noNotes,
}: {
  diffs: RepositoryDiff[];
  notes?: DiffNote[];
}) {
  const [viewType, setViewType] = useState<ViewType>('unified');
  const changed = diffs.filter((diff) => diff.files.length > 0 || diff.patch.trim() !== '');
  return (
    <div className="diff-view">
      <div className="diff-toolbar" role="radiogroup" aria-label="Diff layout">
        {(['unified', 'split'] as const).map((type) => (
          <label key={type} className="inline">
            <input
              type="radio"
              name="diff-layout"
              checked={viewType === type}
              onChange={() => setViewType(type)}
            />{' '}
            {type === 'unified' ? 'Unified' : 'Side by side'}
          </label>
        ))}
      </div>
      {changed.length === 0 ? <div className="empty">No changes.</div> : null}
      {changed.map((diff) => (
        <RepositoryPatch key={diff.repository} diff={diff} viewType={viewType} notes={notes} />
      ))}
    </div>
  );
}

/** Header rows shown at a time: thousands of files stay a few thousand DOM nodes. */
const pageSize = 500;

const noNotes: DiffNote[] = [];

function RepositoryPatch({
  diff,
  viewType,
  notes,
}: {
  diff: RepositoryDiff;
  viewType: ViewType;
  notes: DiffNote[];
}) {
  const entries = useMemo(() => fileEntries(diff), [diff]);
  // Each file's notes; the same empty list for a file without any, so its row stays memoised.
  const notesByKey = useMemo(() => {
    const byKey = new Map<string, DiffNote[]>();
    if (notes.length === 0) return byKey;
    for (const entry of entries) {
      const mine = notesOf(notes, diff.repository, entry.change.path);
      if (mine.length > 0) byKey.set(entry.key, mine);
    }
    return byKey;
  }, [entries, notes, diff.repository]);
  const large = isLarge(diff);
  // What the user opened or closed, by file; the rest follow the defaults (which a live diff may change).
  const [toggled, setToggled] = useState<ReadonlyMap<string, boolean>>(() => new Map());
  const [shown, setShown] = useState(pageSize);
  const onToggle = useCallback(
    (key: string, open: boolean) => setToggled((previous) => new Map(previous).set(key, open)),
    [],
  );
  const missing = diff.truncated ? entries.filter((entry) => entry.cut === 'missing').length : 0;
  const unsplit = diff.patch.trim() !== '' && entries.every((entry) => entry.patch === null);
  const rest = entries.length - shown;
  return (
    <section className="diff-repo" aria-label={`Changes in ${diff.repository}`}>
      <h4>
        {diff.repository} <span className="add">+{diff.additions}</span>{' '}
        <span className="del">−{diff.deletions}</span>{' '}
        <span className="hint">
          {entries.length} {entries.length === 1 ? 'file' : 'files'}
        </span>
      </h4>
      {diff.truncated ? (
        <p className="hint warn">
          The patch is larger than the service sends (1 MiB): {missing} of {entries.length} files have no diff
          here. See them with{' '}
          <code>git diff{diff.base_commit ? ` ${diff.base_commit.slice(0, 12)}` : ''}</code> in the task's
          workspace.
        </p>
      ) : null}
      {large ? (
        <p className="hint">A large diff: each file starts collapsed; open one to see its changes.</p>
      ) : null}
      {unsplit ? <pre className="patch">{diff.patch}</pre> : null}
      {entries.slice(0, shown).map((entry) => (
        <FileRow
          key={entry.key}
          entry={entry}
          notes={notesByKey.get(entry.key) ?? noNotes}
          open={toggled.get(entry.key) ?? ((!large && !entry.generated) || notesByKey.has(entry.key))}
          onToggle={onToggle}
          viewType={viewType}
          baseCommit={diff.base_commit}
        />
      ))}
      {rest > 0 ? (
        <button type="button" className="diff-more" onClick={() => setShown((count) => count + pageSize)}>
          Show {Math.min(rest, pageSize)} more files ({rest} not shown yet)
        </button>
      ) : null}
    </section>
  );
}

interface FileRowProps {
  entry: FileEntry;
  notes: DiffNote[];
  open: boolean;
  onToggle: (key: string, open: boolean) => void;
  viewType: ViewType;
  baseCommit: string | undefined;
}

const statusClass: Record<FileChange['status'], string> = {
  added: 'file-add',
  deleted: 'file-delete',
  modified: 'file-modify',
  renamed: 'file-rename',
};

/** A file's header row (the toggle, its status, its counts: four elements) and, when open, its hunks. */
const FileRow = memo(function FileRow({ entry, notes, open, onToggle, viewType, baseCommit }: FileRowProps) {
  const { change } = entry;
  const counts = entry.counted ? `+${change.additions} −${change.deletions}` : '';
  return (
    <div className="diff-file">
      <button
        type="button"
        className="diff-file-toggle"
        aria-expanded={open}
        onClick={() => onToggle(entry.key, !open)}
      >
        {change.old_path ? `${change.old_path} → ${change.path}` : change.path}
      </button>
      <span className={`file-status ${statusClass[change.status]}`}>{change.status}</span>
      <span className="diff-counts">
        {change.binary ? 'binary' : counts}
        {entry.generated ? ' · generated or lock file' : ''}
        {notes.length > 0 ? ` · ${notes.length} ${notes.length === 1 ? 'finding' : 'findings'}` : ''}
      </span>
      {open ? <FileBody entry={entry} notes={notes} viewType={viewType} baseCommit={baseCommit} /> : null}
    </div>
  );
});

/** An opened file: its part of the patch, parsed now; or, past the service's cut, a way to see it. */
function FileBody({
  entry,
  notes,
  viewType,
  baseCommit,
}: {
  entry: FileEntry;
  notes: DiffNote[];
  viewType: ViewType;
  baseCommit: string | undefined;
}) {
  const files = useMemo(() => {
    if (entry.patch === null) return [];
    try {
      return parseDiff(entry.patch, { nearbySequences: 'zip' });
    } catch {
      return null;
    }
  }, [entry.patch]);
  const { widgets, loose } = useMemo(() => placeNotes(files ?? [], notes), [files, notes]);
  const command = `git diff${baseCommit ? ` ${baseCommit.slice(0, 12)}` : ''} -- ${entry.change.path}`;
  if (entry.cut === 'missing') {
    return (
      <div className="diff-file-body hint pad">
        Diff not shown: the patch is larger than the service sends. See it with <code>{command}</code> in the
        task's workspace.
      </div>
    );
  }
  const hunks = files?.some((file) => file.hunks.length > 0);
  return (
    <div className="diff-file-body">
      {loose.length > 0 ? <div className="diff-notes-top">{loose.map(noteView)}</div> : null}
      {files === null ? <pre className="patch">{entry.patch}</pre> : null}
      {files !== null && !hunks ? (
        <div className="hint pad">{entry.change.binary ? 'Binary file.' : 'No content changes.'}</div>
      ) : null}
      {files?.map((file) =>
        file.hunks.length > 0 ? (
          <Diff
            key={`${file.oldPath}→${file.newPath}:${file.type}`}
            viewType={viewType}
            diffType={file.type}
            hunks={file.hunks}
            widgets={widgets}
          >
            {(each) => each.map((hunk) => <Hunk key={hunk.content} hunk={hunk} />)}
          </Diff>
        ) : null,
      )}
      {entry.cut === 'partial' ? (
        <div className="hint pad">
          The patch is cut inside this file: only its start is shown. See all of it with{' '}
          <code>{command}</code>.
        </div>
      ) : null}
    </div>
  );
}

const severityTones: Record<DiffNote['severity'], string> = { error: 'bad', warning: 'warn', info: 'info' };

function noteView(note: DiffNote) {
  return (
    <div key={note.id} className={`diff-note diff-note-${note.severity}`} data-testid="diff-note">
      <Badge value={note.severity} tone={severityTones[note.severity]} />
      <span className="diff-note-message">{note.message}</span>
    </div>
  );
}

/**
 * Each note under the change that shows its line of the new file (react-diff-view's widgets, keyed by
 * change); a note with no line, or one whose line the diff does not show, goes to the top of the file.
 */
function placeNotes(files: FileData[], notes: DiffNote[]) {
  const widgets: Record<string, ReactNode> = {};
  const loose: DiffNote[] = [];
  if (notes.length === 0) return { widgets, loose };
  const placed = new Map<string, DiffNote[]>();
  for (const note of notes) {
    const change =
      note.line === null
        ? undefined
        : files
            .flatMap((file) => file.hunks.flatMap((hunk) => hunk.changes))
            .find((each) => computeNewLineNumber(each) === note.line);
    if (!change) {
      loose.push(note);
      continue;
    }
    const key = getChangeKey(change);
    placed.set(key, [...(placed.get(key) ?? []), note]);
  }
  for (const [key, here] of placed) widgets[key] = <div className="diff-notes">{here.map(noteView)}</div>;
  return { widgets, loose };
}

const editLabels: Record<ToolEdit['tool'], string> = {
  edit_file: 'replaced text',
  write_file: 'written in full',
  patch: 'patch',
};

/**
 * A tool call's edit as a diff, from its arguments: the replaced text (without line numbers, which would
 * count from the snippet, not the file), a file written in full, or the patch as the model sent it.
 */
export function EditDiff({ edit }: { edit: ToolEdit }) {
  const file = useMemo(() => {
    try {
      return parseDiff(editPatch(edit), { nearbySequences: 'zip' })[0] ?? null;
    } catch {
      return null;
    }
  }, [edit]);
  return (
    <div className="edit-diff" data-testid="edit-diff">
      <div className="edit-diff-head">
        <code>{edit.path}</code> <span className="hint">{editLabels[edit.tool]}</span>
      </div>
      {file && file.hunks.length > 0 ? (
        <Diff
          viewType="unified"
          diffType={file.type}
          hunks={file.hunks}
          gutterType={edit.tool === 'edit_file' ? 'none' : 'default'}
        >
          {(hunks) => hunks.map((hunk) => <Hunk key={hunk.content} hunk={hunk} />)}
        </Diff>
      ) : (
        <pre className="patch">{edit.tool === 'patch' ? edit.diff : '(no change)'}</pre>
      )}
    </div>
  );
}

/** The edit as a one-file git patch, which react-diff-view's parser reads. */
function editPatch(edit: ToolEdit): string {
  const path = edit.path.replace(/^\/+/, '');
  const head = `diff --git a/${path} b/${path}\n`;
  const withNewline = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);
  // createTwoFilesPatch starts with a line of `=`; git's form starts at `--- `.
  const body = (patch: string) => patch.slice(patch.indexOf('--- '));
  switch (edit.tool) {
    case 'edit_file':
      return (
        head +
        body(createTwoFilesPatch(`a/${path}`, `b/${path}`, withNewline(edit.before), withNewline(edit.after)))
      );
    case 'write_file':
      return `${head}new file mode 100644\n${body(createTwoFilesPatch('/dev/null', `b/${path}`, '', withNewline(edit.content)))}`;
    case 'patch': {
      const hunks = edit.diff.slice(Math.max(0, edit.diff.search(/^@@/m)));
      return `${head}--- a/${path}\n+++ b/${path}\n${withNewline(hunks)}`;
    }
  }
}
