import type { Directory } from '@keel/protocol/runtime';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ApiError } from '../../api/errors.ts';
import { ErrorNote, Loading } from '../../components/status.tsx';
import { keelWeb } from '../api/keel-web.ts';

/**
 * keel-web's directories (`GET /api/directories`), browsed to pick a project's directory: opens at `start`
 * (else the server's home directory), goes up and down, and hands back the folder shown. The workbench has
 * its own picker over its own API, whose entries also say which folders are git repositories.
 */
export default function DirectoryPicker(props: {
  start?: string | undefined;
  onPick: (path: string) => void;
  onClose: () => void;
}) {
  const [path, setPath] = useState<string | undefined>(props.start || undefined);
  const listing = useQuery<Directory, ApiError>({
    queryKey: ['directories', path ?? '~'],
    queryFn: () => keelWeb.directory(path === undefined ? {} : { path }),
    retry: false,
  });
  const here = listing.data;
  const into = (name: string) => (here ? `${here.path.replace(/\/$/, '')}/${name}` : name);
  return (
    <div className="overlay">
      <div
        className="card picker"
        role="dialog"
        aria-modal="true"
        aria-label="Choose the project's directory"
        onKeyDown={(event) => {
          if (event.key === 'Escape') props.onClose();
        }}
      >
        <h2>Choose the project's directory</h2>
        <p className="hint picker-path" data-testid="picker-path">
          {here?.path ?? path ?? 'home'}
        </p>
        {listing.isPending ? <Loading what="folders" /> : null}
        <ErrorNote error={listing.error} />
        {listing.error && path && path !== '/' ? (
          // A path typed in that is not a directory (yet): go on from the folder it would be in.
          <button type="button" className="button-link" onClick={() => setPath(parentOf(path))}>
            ↑ {parentOf(path)}
          </button>
        ) : null}
        <ul className="picker-list">
          {here?.parent ? (
            <li className="picker-entry">
              <button type="button" className="button-link" onClick={() => setPath(here.parent ?? undefined)}>
                ↑ ..
              </button>
            </li>
          ) : null}
          {here?.entries
            .filter((entry) => entry.is_dir)
            .map((entry) => (
              <li key={entry.name} className="picker-entry">
                <button type="button" className="button-link" onClick={() => setPath(into(entry.name))}>
                  ▸ {entry.name}
                </button>
              </li>
            ))}
          {here && !here.entries.some((entry) => entry.is_dir) ? (
            <li className="hint">No folders here.</li>
          ) : null}
        </ul>
        <div className="form-actions">
          <button
            type="button"
            className="button-primary"
            disabled={!here}
            onClick={() => here && props.onPick(here.path)}
          >
            Use this folder
          </button>
          <button type="button" className="button-quiet" onClick={props.onClose}>
            Cancel
          </button>
        </div>
      </div>
    </div>
  );
}

/** The folder a path is in, by its text (the path itself may not exist). */
function parentOf(path: string): string {
  return path.replace(/\/+$/, '').replace(/\/[^/]*$/, '') || '/';
}
