import type { Checkpoint, RunStore } from '../store/index.ts';

/**
 * The checkpoints a run's state at `upTo` (default: its latest) is rebuilt from, oldest first: from the
 * latest whole checkpoint on, when the store can find it (`checkpointChain`), else every one up to it.
 */
export async function loadCheckpointChain(
  store: RunStore,
  runId: string,
  upTo?: string,
): Promise<Checkpoint[]> {
  if (store.checkpointChain) return store.checkpointChain(runId, upTo);
  const all = await store.listCheckpoints(runId);
  return upTo === undefined ? all : all.slice(0, all.findIndex((each) => each.id === upTo) + 1);
}
