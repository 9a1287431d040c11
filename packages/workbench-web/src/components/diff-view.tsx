import { useMemo, useState } from 'react';
import { Diff, Hunk, parseDiff, type ViewType } from 'react-diff-view';
import 'react-diff-view/style/index.css';
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
