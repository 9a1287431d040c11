import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client.ts';
import type { ApiError } from '../api/errors.ts';
import type { DirectoryListing } from '../api/types.ts';
import { ErrorNote, Loading } from './status.tsx';

/**
 * Browses the workbench machine's directories (`GET /api/directories`) to pick a repository: opens where
 * `start` is (else the home directory), marks git repositories, and hands back the chosen folder.
 */
/** The service's page of entries (`GET /api/directories`). */
const pageSize = 2000;

export function DirectoryPicker(props: {
  start?: string;
  onPick: (path: string) => void;
  onClose: () => void;
}) {
  const [place, setPlace] = useState<{ path: string | undefined; offset: number }>({
    path: props.start || undefined,
    offset: 0,
  });
  const { path, offset } = place;
  const setPath = (next: string | undefined) => setPlace({ path: next, offset: 0 });
  const listing = useQuery<DirectoryListing, ApiError>({
    queryKey: ['directories', path ?? '~', offset],
    queryFn: () => api.directories.list({ path, offset }),
    retry: false,
  });
  const here = listing.data;
  return (
    <div className="overlay">
      <div className="card picker" role="dialog" aria-modal="true" aria-label="Choose a repository folder">
        <h2>Choose a repository</h2>
        <p className="hint picker-path" data-testid="picker-path">
          {here?.path ?? path ?? 'home'}
        </p>
        {listing.isPending ? <Loading what="folders" /> : null}
        <ErrorNote error={listing.error} />
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
              <li key={entry.path} className="picker-entry">
                <button type="button" className="button-link" onClick={() => setPath(entry.path)}>
                  ▸ {entry.name}
                </button>
                {entry.is_git_repo ? (
                  <button
                    type="button"
                    className="button-secondary picker-use"
                    onClick={() => props.onPick(entry.path)}
                  >
                    Use this repository
                  </button>
                ) : null}
              </li>
            ))}
        </ul>
        {here && (here.truncated || here.offset > 0) ? (
          <p className="hint picker-pages" data-testid="picker-truncated">
            Entries {(here.offset + 1).toLocaleString()}–
            {(here.offset + here.entries.length).toLocaleString()} of {here.total.toLocaleString()}, by name.{' '}
            {here.offset > 0 ? (
              <button
                type="button"
                className="button-link"
                onClick={() => setPlace({ path, offset: Math.max(0, here.offset - pageSize) })}
              >
                ← Previous
              </button>
            ) : null}{' '}
            {here.truncated ? (
              <button
                type="button"
                className="button-link"
                onClick={() => setPlace({ path, offset: here.offset + here.entries.length })}
              >
                Next →
              </button>
            ) : null}
          </p>
        ) : null}
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
