import { useVirtualizer } from '@tanstack/react-virtual';
import { createTwoFilesPatch } from 'diff';
import { memo, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';
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
import type { ToolEdit } from '../api/tool-edit.ts';
import type { FileChange, RepositoryDiff } from '../api/types.ts';
import { type DiffNote, DiffNoteActions, notesOf } from './diff-notes.ts';
import './diff-view.css';
import { FilePatchCache, useFilePatch } from './file-patch-loader.ts';
import { type FileEntry, fileEntries, isLarge } from './patch-files.ts';
import { Badge, ErrorNote } from './status.tsx';

/**
 * Each repository's changes, file by file, unified or split. Loaded on first use. Every file of the
 * service's list is shown; a large diff starts with its files collapsed (a light header row each) in a
 * virtual list (only the rows in view are in the page), and a file's part of the patch is parsed when it is
 * opened. With `taskId` (the review), a file past the service's 1 MiB patch cut loads its own patch when
 * opened. `notes` (the reviewer's findings) show under the line they are about, or at the top of their
 * file; a file with a note starts open.
 */
export default function DiffView({
  diffs,
  notes = noNotes,
  taskId,
}: {
  diffs: RepositoryDiff[];
  notes?: DiffNote[];
  /** The task whose diff this is: files past the patch's cut are then read one by one when opened. */
  taskId?: string;
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
        <RepositoryPatch
          key={diff.repository}
          diff={diff}
          viewType={viewType}
          notes={notes}
          taskId={taskId}
        />
      ))}
    </div>
  );
}

const noNotes: DiffNote[] = [];

/** Where an opened file past the cut reads its patch from; one per repository's diff as shown. */
interface PatchSource {
  taskId: string | undefined;
  repository: string;
  cache: FilePatchCache;
}

// The patches loaded for a diff, for as long as that answer is shown (a new answer may differ).
const caches = new WeakMap<RepositoryDiff, FilePatchCache>();
function cacheOf(diff: RepositoryDiff): FilePatchCache {
  const known = caches.get(diff);
  if (known) return known;
  const cache = new FilePatchCache();
  caches.set(diff, cache);
  return cache;
}

function RepositoryPatch({
  diff,
  viewType,
  notes,
  taskId,
}: {
  diff: RepositoryDiff;
  viewType: ViewType;
  notes: DiffNote[];
  taskId: string | undefined;
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
  const onToggle = useCallback(
    (key: string, open: boolean) => setToggled((previous) => new Map(previous).set(key, open)),
    [],
  );
  const [filter, setFilter] = useState('');
  const shown = useMemo(() => {
    const words = filter.trim().toLowerCase();
    if (words === '') return entries;
    return entries.filter((entry) =>
      `${entry.change.old_path ?? ''}\u0000${entry.change.path}`.toLowerCase().includes(words),
    );
  }, [entries, filter]);
  const source = useMemo<PatchSource>(
    () => ({ taskId, repository: diff.repository, cache: cacheOf(diff) }),
    [taskId, diff],
  );
  const missing = diff.truncated ? entries.filter((entry) => entry.cut === 'missing').length : 0;
  const unsplit = diff.patch.trim() !== '' && entries.every((entry) => entry.patch === null);
  const row = (entry: FileEntry) => (
    <FileRow
      key={entry.key}
      entry={entry}
      notes={notesByKey.get(entry.key) ?? noNotes}
      open={toggled.get(entry.key) ?? ((!large && !entry.generated) || notesByKey.has(entry.key))}
      onToggle={onToggle}
      viewType={viewType}
      baseCommit={diff.base_commit}
      source={source}
    />
  );
  const command = `git diff${diff.base_commit ? ` ${diff.base_commit.slice(0, 12)}` : ''}`;
  return (
    <section className="diff-repo" aria-label={`Changes in ${diff.repository}`}>
      <h4>
        {diff.repository} <span className="add">+{diff.additions}</span>{' '}
        <span className="del">−{diff.deletions}</span>{' '}
        <span className="hint">
          {entries.length} {entries.length === 1 ? 'file' : 'files'}
        </span>
      </h4>
      {diff.truncated && taskId !== undefined ? (
        <p className="hint">
          The patch is larger than the service sends at once (1 MiB): {missing} of {entries.length} files load
          their diff when opened.
        </p>
      ) : null}
      {diff.truncated && taskId === undefined ? (
        <p className="hint warn">
          The patch is larger than the service sends (1 MiB): {missing} of {entries.length} files have no diff
          here. See them with <code>{command}</code> in the task's workspace.
        </p>
      ) : null}
      {large ? (
        <div className="diff-list-head">
          <p className="hint">A large diff: each file starts collapsed; open one to see its changes.</p>
          <input
            type="search"
            className="diff-filter"
            aria-label="Filter files by path"
            placeholder="Filter files by path"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
          />
          {filter.trim() !== '' ? (
            <span className="hint">
              {shown.length} of {entries.length}
            </span>
          ) : null}
        </div>
      ) : null}
      {unsplit ? <pre className="patch">{diff.patch}</pre> : null}
      {large ? <VirtualFiles entries={shown} row={row} label={diff.repository} /> : entries.map(row)}
    </section>
  );
}

/** A collapsed file's row height (the header alone), before the row is measured. */
const rowEstimate = 34;

/**
 * The file rows in a scroll box of their own, only those in view (and a few around) in the page: thousands
 * of files stay a few hundred DOM nodes. Each row is measured as it renders, so an opened file takes the
 * height of its hunks.
 */
function VirtualFiles({
  entries,
  row,
  label,
}: {
  entries: FileEntry[];
  row: (entry: FileEntry) => ReactNode;
  label: string;
}) {
  const scroller = useRef<HTMLElement>(null);
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowEstimate,
    getItemKey: (index) => entries[index]?.key ?? index,
    overscan: 8,
  });
  return (
    <section
      ref={scroller}
      className="diff-scroll"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll box is reached and scrolled by keyboard
      tabIndex={0}
      aria-label={`Files in ${label}`}
    >
      <div className="diff-scroll-inner" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const entry = entries[item.index];
          return entry ? (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className="diff-row"
              style={{ transform: `translateY(${item.start}px)` }}
            >
              {row(entry)}
            </div>
          ) : null;
        })}
      </div>
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
  source: PatchSource;
}

const statusClass: Record<FileChange['status'], string> = {
  added: 'file-add',
  deleted: 'file-delete',
  modified: 'file-modify',
  renamed: 'file-rename',
};

/** A file's header row (the toggle, its status, its counts: four elements) and, when open, its hunks. */
const FileRow = memo(function FileRow({
  entry,
  notes,
  open,
  onToggle,
  viewType,
  baseCommit,
  source,
}: FileRowProps) {
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
      {open ? (
        <FileBody entry={entry} notes={notes} viewType={viewType} baseCommit={baseCommit} source={source} />
      ) : null}
    </div>
  );
});

/**
 * An opened file: its part of the patch, parsed now. Past the service's cut (or cut inside it), the file's
 * own patch read from the service when there is a task to ask; otherwise a way to see it.
 */
function FileBody({
  entry,
  notes,
  viewType,
  baseCommit,
  source,
}: {
  entry: FileEntry;
  notes: DiffNote[];
  viewType: ViewType;
  baseCommit: string | undefined;
  source: PatchSource;
}) {
  const wanted = entry.cut !== 'none' && source.taskId !== undefined;
  const loaded = useFilePatch(source.cache, source.taskId, source.repository, entry.change.path, wanted);
  const patch = wanted ? (loaded?.patch?.patch ?? null) : entry.patch;
  const files = useMemo(() => {
    if (patch === null) return [];
    try {
      return parseDiff(patch, { nearbySequences: 'zip' });
    } catch {
      return null;
    }
  }, [patch]);
  const { widgets, loose } = useMemo(() => placeNotes(files ?? [], notes), [files, notes]);
  const command = `git diff${baseCommit ? ` ${baseCommit.slice(0, 12)}` : ''} -- ${entry.change.path}`;
  if (wanted && loaded === null) {
    return (
      <div className="diff-file-body hint pad" aria-busy="true">
        Loading this file's diff…
      </div>
    );
  }
  if (loaded?.error) {
    return (
      <div className="diff-file-body pad">
        <ErrorNote error={loaded.error} />
        <span className="hint">
          See the diff with <code>{command}</code> in the task's workspace.
        </span>
      </div>
    );
  }
  if (entry.cut === 'missing' && !wanted) {
    return (
      <div className="diff-file-body hint pad">
        Diff not shown: the patch is larger than the service sends. See it with <code>{command}</code> in the
        task's workspace.
      </div>
    );
  }
  const hunks = files?.some((file) => file.hunks.length > 0);
  const cut = wanted ? loaded?.patch?.truncated === true : entry.cut === 'partial';
  return (
    <div className="diff-file-body">
      {loose.length > 0 ? <div className="diff-notes-top">{loose.map(noteView)}</div> : null}
      {files === null ? <pre className="patch">{patch}</pre> : null}
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
      {cut ? (
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
  return <NoteView key={note.id} note={note} />;
}

function NoteView({ note }: { note: DiffNote }) {
  const actions = useContext(DiffNoteActions);
  return (
    <div className={`diff-note diff-note-${note.severity}`} data-testid="diff-note">
      <Badge value={note.severity} tone={severityTones[note.severity]} />
      <span className="diff-note-message">{note.message}</span>
      {actions ? <span className="diff-note-actions">{actions(note)}</span> : null}
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
