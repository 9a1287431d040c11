// Refreshing a task's merge requests while a read is already under way: the read may have asked the provider
// before what the caller knows changed (a merge just done), so the caller gets a read that starts after it;
// callers meanwhile share that one read. (A load-dependent failure of review-follow-up.test.ts showed it.)
import { describe, expect, test } from 'vitest';
import type { SettingsService } from '../../src/settings/index.ts';
import { MergeRequestFollower } from '../../src/tasks/merge-request-follower.ts';
import type { Tasks } from '../../src/tasks/tasks.ts';

/** A task store whose reads wait until the test lets each one go, counting them. */
function heldStore() {
  const waiting: (() => void)[] = [];
  let reads = 0;
  const store = {
    async get(id: string) {
      reads++;
      await new Promise<void>((resolve) => waiting.push(resolve));
      return { id, merge_requests: null };
    },
  } as unknown as Tasks;
  return {
    store,
    reads: () => reads,
    /** Lets the oldest held read go on. */
    release: async () => {
      while (waiting.length === 0) await new Promise((resolve) => setImmediate(resolve));
      waiting.shift()?.();
    },
  };
}

describe('MergeRequestFollower.refresh', () => {
  test('a refresh during a read gets a read of its own that starts after it; later ones join that', async () => {
    const held = heldStore();
    const follower = new MergeRequestFollower({ store: held.store, settings: {} as SettingsService });
    const first = follower.refresh('task_1');
    const settled = (promise: Promise<unknown>) => promise.then(String, (error: Error) => error.message);
    const firstDone = settled(first);
    await held.release();
    // The first read is under way (it has called the store): a new refresh must not join it.
    const second = follower.refresh('task_1');
    const third = follower.refresh('task_1');
    expect(second).not.toBe(first);
    expect(third).toBe(second);
    expect(await firstDone).toContain('no merge request');
    await held.release();
    expect(await settled(second)).toContain('no merge request');
    expect(held.reads()).toBe(2);
    follower.close();
  });
});
