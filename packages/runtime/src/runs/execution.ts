import type { EventBody, RuntimeEvent } from '../events/index.ts';
import type { BlobStore, Run, RunStore } from '../store/index.ts';
import type { SchedulerState } from '../workflow/index.ts';
import type { Checkpointer } from './checkpointer.ts';
import type { RunBudget } from './run-budget.ts';
import type { RunSetup } from './run-setup.ts';
import type { RunSupervisor } from './run-supervisor.ts';

/** One execution of a claimed run, as the pieces of the executor share it. */
export interface Execution {
  run: Run;
  store: RunStore;
  blobs: BlobStore;
  /** This worker's lease owner id: final transitions need it. */
  owner: string;
  setup: RunSetup;
  /** The scheduler state, mutated as the run goes and checkpointed at every step boundary. */
  state: SchedulerState;
  supervisor: RunSupervisor;
  checkpointer: Checkpointer;
  budget: RunBudget;
  /** Stores an event (gapless seq), then hands it to listeners. */
  emit(body: EventBody): Promise<void>;
  /** Hands an event already stored (by an earlier execution) to this execution's listeners. */
  deliver(event: RuntimeEvent, seq: number): Promise<void>;
}
