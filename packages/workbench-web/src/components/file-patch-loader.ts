// One file's patch from the service (`GET /api/tasks/{id}/diff/file`), for a file the task diff lists but
// whose part of the 1 MiB patch was cut. Read when the file is opened, kept for as long as the diff it belongs
// to is shown (a row scrolled out of the virtual list and back does not ask again).
import { useEffect, useState } from 'react';
import { api } from '../api/client.ts';
import { type ApiError, asApiError } from '../api/errors.ts';
import type { FileDiff } from '../api/types.ts';

type Loaded = { patch: FileDiff; error?: undefined } | { patch?: undefined; error: ApiError };

/** The answers (or failures) by file, and the requests on their way; one per shown diff. */
export class FilePatchCache {
  readonly done = new Map<string, Loaded>();
  readonly pending = new Map<string, Promise<void>>();
}

/**
 * `path`'s patch in `repository` once loaded (null while it loads), or the error. Nothing is asked for
 * while `enabled` is false.
 */
export function useFilePatch(
  cache: FilePatchCache,
  taskId: string | undefined,
  repository: string,
  path: string,
  enabled: boolean,
): Loaded | null {
  const key = `${repository}\u0000${path}`;
  const [loaded, setLoaded] = useState<Loaded | null>(() => success(cache.done.get(key)));
  useEffect(() => {
    if (!enabled || taskId === undefined) return;
    // A failure is asked again when the file is opened again; an answer is kept.
    const known = success(cache.done.get(key));
    if (known) {
      setLoaded(known);
      return;
    }
    let live = true;
    let pending = cache.pending.get(key);
    if (!pending) {
      pending = api.tasks.fileDiff(taskId, { repository, path }).then(
        (patch) => void cache.done.set(key, { patch }),
        (error: unknown) => void cache.done.set(key, { error: asApiError(error) }),
      );
      cache.pending.set(key, pending);
    }
    void pending.then(() => {
      cache.pending.delete(key);
      if (live) setLoaded(cache.done.get(key) ?? null);
    });
    return () => {
      live = false;
    };
  }, [cache, taskId, repository, path, key, enabled]);
  return enabled ? loaded : null;
}

function success(loaded: Loaded | undefined): Loaded | null {
  return loaded?.patch ? loaded : null;
}
