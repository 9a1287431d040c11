import { WorkbenchError } from '../errors.ts';
import { type MergeRequestStatus, readMergeRequest } from '../merge-requests/index.ts';
import type { SettingsService } from '../settings/index.ts';
import { nowIso } from '../store/index.ts';
import type { Tasks } from './tasks.ts';
import type { FollowedMergeRequest, SubmitResult, Task } from './types.ts';

export interface FollowerOptions {
  store: Tasks;
  settings: SettingsService;
  /** The first wait between reads (ms); doubled while nothing changes, up to `maxIntervalMs`. */
  intervalMs?: number;
  maxIntervalMs?: number;
}

/** A merge request can be followed when it was opened on GitHub or GitLab and we know its URL. */
export function followable(results: SubmitResult[]): FollowedMergeRequest[] {
  return results.flatMap((result) => {
    const url = result.merge_request?.url ?? result.mr_url;
    if (!url || (result.provider !== 'github' && result.provider !== 'gitlab')) return [];
    return [
      {
        repository: result.repository,
        provider: result.provider,
        url,
        status: null,
        error: null,
        following: true,
        checked_at: null,
      },
    ];
  });
}

interface PendingRead {
  started: boolean;
  read: Promise<Task>;
}

const ignore = () => {};

/**
 * Follows submitted merge requests to their end: reads each one's state, checks and comments from its
 * provider's REST API with the stored token, at a back-off that doubles while nothing changes (30 s up to
 * 10 min by default) and starts again at the first interval when something did. A merged or closed MR is
 * no longer read. Resumed for every task that still follows one when the service starts.
 */
export class MergeRequestFollower {
  readonly #options: FollowerOptions;
  readonly #timers = new Map<string, { timer: NodeJS.Timeout; interval: number }>();
  /** The newest read of each task's merge requests, while it is pending. */
  readonly #reading = new Map<string, PendingRead>();
  #closed = false;

  constructor(options: FollowerOptions) {
    this.#options = options;
  }

  get #base(): number {
    return this.#options.intervalMs ?? 30_000;
  }

  /** Starts (or restarts at the first interval) following the task's open merge requests. */
  follow(taskId: string): void {
    this.#schedule(taskId, this.#base);
  }

  /** Every task with a merge request still followed (at start-up). */
  resume(tasks: readonly Pick<Task, 'id' | 'merge_requests'>[]): void {
    for (const task of tasks) {
      if (task.merge_requests?.some((each) => each.following)) this.follow(task.id);
    }
  }

  /**
   * Reads every followed merge request of the task now; answers the task as it then is. A call joins a read
   * that has not started yet, never one already under way: that one may have read the provider before
   * what the caller knows changed (a merge just done), so the call's read starts when it ends.
   */
  refresh(taskId: string): Promise<Task> {
    const newest = this.#reading.get(taskId);
    if (newest && !newest.started) return newest.read;
    const entry: PendingRead = { started: false, read: Promise.resolve() as unknown as Promise<Task> };
    entry.read = (newest?.read ?? Promise.resolve())
      .then(ignore, ignore)
      .then(() => {
        entry.started = true;
        return this.#read(taskId);
      })
      .finally(() => {
        if (this.#reading.get(taskId) === entry) this.#reading.delete(taskId);
      });
    this.#reading.set(taskId, entry);
    return entry.read;
  }

  close(): void {
    this.#closed = true;
    for (const { timer } of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }

  #schedule(taskId: string, interval: number): void {
    if (this.#closed) return;
    const existing = this.#timers.get(taskId);
    if (existing) clearTimeout(existing.timer);
    const timer = setTimeout(() => void this.#tick(taskId, interval), interval);
    timer.unref();
    this.#timers.set(taskId, { timer, interval });
  }

  async #tick(taskId: string, interval: number): Promise<void> {
    this.#timers.delete(taskId);
    let before: string;
    let task: Task;
    try {
      before = fingerprint(await this.#options.store.get(taskId));
      task = await this.refresh(taskId);
    } catch {
      // The task was deleted, or the store failed: nothing left to follow now.
      return;
    }
    if (!task.merge_requests?.some((each) => each.following)) return;
    const changed = fingerprint(task) !== before;
    const max = this.#options.maxIntervalMs ?? 10 * 60_000;
    this.#schedule(taskId, changed ? this.#base : Math.min(interval * 2, max));
  }

  async #read(taskId: string): Promise<Task> {
    const { store } = this.#options;
    const task = await store.get(taskId);
    const followed = task.merge_requests;
    if (!followed || followed.length === 0) {
      throw new WorkbenchError(
        'NO_MERGE_REQUEST',
        'The task has no merge request on GitHub or GitLab to follow: submit it first (POST /api/tasks/{id}/submit-mr).',
        { task_id: taskId },
      );
    }
    const next: FollowedMergeRequest[] = [];
    for (const each of followed) {
      if (!each.following) {
        next.push(each);
        continue;
      }
      next.push(await this.#readOne(each));
    }
    // Written against the row as it is then: a submit meanwhile may have replaced the list.
    return await store.change(taskId, (current) => ({
      merge_requests: (current.merge_requests ?? []).map(
        (each) => next.find((read) => read.url === each.url) ?? each,
      ),
    }));
  }

  async #readOne(followed: FollowedMergeRequest): Promise<FollowedMergeRequest> {
    const settings = await this.#options.settings.stored();
    const secrets = await this.#options.settings.secrets();
    const token = followed.provider === 'github' ? secrets.github_token : secrets.gitlab_token;
    const checked_at = nowIso();
    if (!token) {
      const name = `${followed.provider}_token`;
      return {
        ...followed,
        checked_at,
        error: `No ${name} is set: set it with PUT /api/settings {"${name}": "…"} to follow this merge request.`,
      };
    }
    try {
      const status: MergeRequestStatus = await readMergeRequest({
        provider: followed.provider,
        apiUrl: followed.provider === 'github' ? settings.github_api_url : settings.gitlab_api_url,
        token,
        url: followed.url,
      });
      return { ...followed, status, error: null, checked_at, following: status.state === 'open' };
    } catch (error) {
      return { ...followed, checked_at, error: (error as Error).message };
    }
  }
}

/** What counts as a change for the back-off: states, checks and comments, not the time of reading. */
function fingerprint(task: Task): string {
  return JSON.stringify(
    (task.merge_requests ?? []).map((each) => [
      each.status?.state,
      each.status?.head_sha,
      each.status?.checks,
      each.status?.comments.map((comment) => comment.id),
      each.error,
    ]),
  );
}
