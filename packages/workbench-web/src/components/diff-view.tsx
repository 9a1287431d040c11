import { createTwoFilesPatch } from 'diff';
import { useMemo, useState } from 'react';
import { Diff, Hunk, parseDiff, type ViewType } from 'react-diff-view';
import 'react-diff-view/style/index.css';
import type { ToolEdit } from '../api/tool-edit.ts';
import type { RepositoryDiff } from '../api/types.ts';

/** One repository's unified git patch, file by file, unified or split. Loaded on first use. */
export default function DiffView({ diffs }: { diffs: RepositoryDiff[] }) {
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
        <RepositoryPatch key={diff.repository} diff={diff} viewType={viewType} />
      ))}
    </div>
  );
}

function RepositoryPatch({ diff, viewType }: { diff: RepositoryDiff; viewType: ViewType }) {
  const files = useMemo(() => {
    try {
      return parseDiff(diff.patch, { nearbySequences: 'zip' });
    } catch {
      return null;
    }
  }, [diff.patch]);
  return (
    <section className="diff-repo" aria-label={`Changes in ${diff.repository}`}>
      <h4>
        {diff.repository} <span className="add">+{diff.additions}</span>{' '}
        <span className="del">−{diff.deletions}</span>
      </h4>
      {files === null ? <pre className="patch">{diff.patch}</pre> : null}
      {files?.map((file) => {
        const path = file.type === 'delete' ? file.oldPath : file.newPath;
        const stat = diff.files.find((each) => each.path === path);
        return (
          <details key={`${file.oldPath}→${file.newPath}`} className="diff-file" open>
            <summary>
              <span className={`file-status file-${file.type}`}>{file.type}</span>{' '}
              <code>{file.type === 'rename' ? `${file.oldPath} → ${file.newPath}` : path}</code>
              {stat ? (
                <span className="hint">
                  {' '}
                  <span className="add">+{stat.additions}</span>{' '}
                  <span className="del">−{stat.deletions}</span>
                </span>
              ) : null}
            </summary>
            {file.hunks.length === 0 ? (
              <div className="hint pad">{stat?.binary ? 'Binary file.' : 'No content changes.'}</div>
            ) : (
              <Diff viewType={viewType} diffType={file.type} hunks={file.hunks}>
                {(hunks) => hunks.map((hunk) => <Hunk key={hunk.content} hunk={hunk} />)}
              </Diff>
            )}
          </details>
        );
      })}
      {diff.truncated ? (
        <div className="hint pad">The patch was cut: it is larger than the service shows.</div>
      ) : null}
    </section>
  );
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
