import { isDeepStrictEqual } from 'node:util';
import type { EventBody, RuntimeEvent } from '../events/index.ts';
import type { RunEventRecord, RunStore } from '../store/index.ts';
import type { Execution } from './execution.ts';

/**
 * Emits an announcement (`done`, `interaction_request`) unless a worker that died announced the very same
 * thing as the run's last event, before the checkpoint or transition that would have recorded it: then
 * this execution's listeners get the stored one, and the run's log says it once (docs/reliability.md).
 */
export async function announceOnce(execution: Execution, body: EventBody): Promise<void> {
  const stored = await storedAsLast(execution.store, execution.run.id, body);
  if (stored) await execution.deliver(stored.event as unknown as RuntimeEvent, stored.seq);
  else await execution.emit(body);
}

/** The run's last stored event, when it is `body` (whatever session it names). */
async function storedAsLast(store: RunStore, runId: string, body: EventBody): Promise<RunEventRecord | null> {
  const { last_seq } = await store.getRun(runId);
  if (last_seq === 0) return null;
  const [last] = await store.listEvents(runId, { after: last_seq - 1, limit: 1 });
  if (last?.event.type !== body.type) return null;
  const { session_id: _session, ...stored } = last.event;
  return isDeepStrictEqual(stored, JSON.parse(JSON.stringify(body))) ? last : null;
}
