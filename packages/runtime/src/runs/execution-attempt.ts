import type { Run, RunStore } from '../store/index.ts';
import { countRecoveries } from './orphan-recovery.ts';

/**
 * Which execution of the run this is, as its tools are told (ToolContext.run): 1 for the first, and one
 * more for each retry (`run.attempt`) and each recovery, manual or automatic (its audit entries). Above 1,
 * a tool call in flight when the last execution ended may be made again, with the same tool call id.
 * Waits for a human or a pause do not count: no call was in flight. A store that cannot say how many
 * recoveries there were counts none, rather than stopping the run.
 */
export async function executionAttempt(store: RunStore, run: Run): Promise<number> {
  const recoveries = await countRecoveries(store, run.id).catch(() => 0);
  return run.attempt + recoveries;
}
