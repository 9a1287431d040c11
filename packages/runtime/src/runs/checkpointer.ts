import type { RunStore } from '../store/index.ts';
import { type SchedulerState, SuspendRun } from '../workflow/index.ts';
import { CheckpointCodec, isWhole } from './checkpoint-codec.ts';
import type { RunSupervisor } from './run-supervisor.ts';

/**
 * Saves the run's scheduler state at step boundaries, and is where a requested pause takes effect: a
 * boundary is the only place a run can stop and continue later without losing work.
 */
export class Checkpointer {
  readonly #store: RunStore;
  readonly #runId: string;
  readonly #state: SchedulerState;
  readonly #supervisor: RunSupervisor;
  readonly #codec = new CheckpointCodec();
  // User messages are marked consumed only once a checkpoint holds them: a crash before that shows them
  // to the model again after recover, never loses them.
  readonly #markedInputs = new Set<string>();

  /**
   * `state` is the state the execution starts from (decoded from the run's checkpoints, or fresh);
   * `chainBytes` the JSON sizes of the checkpoints it was decoded from (see CheckpointCodec.remember).
   */
  constructor(
    store: RunStore,
    runId: string,
    state: SchedulerState,
    supervisor: RunSupervisor,
    chainBytes: readonly number[] = [],
  ) {
    this.#store = store;
    this.#runId = runId;
    this.#state = state;
    this.#supervisor = supervisor;
    this.#codec.remember(state, chainBytes);
  }

  /**
   * Checkpoints the state after `stepId` (null: no step), with `finishStep` ending that step as succeeded
   * in the same write; then pauses the run if a pause was asked for.
   */
  async save(stepId: string | null, options: { finishStep?: boolean } = {}): Promise<void> {
    const state = this.#state;
    state.elapsed_ms = this.#supervisor.elapsedMs();
    const encoded = this.#codec.encode(state);
    await this.#store.saveCheckpoint({
      run_id: this.#runId,
      step_id: stepId,
      state: encoded,
      whole: isWhole(encoded),
      ...(options.finishStep ? { finishStep: true } : {}),
    });
    const unmarked = (state.user_inputs ?? []).filter((id) => !this.#markedInputs.has(id));
    if (unmarked.length > 0) {
      await this.#store.consumeUserInputs(this.#runId, unmarked);
      for (const id of unmarked) this.#markedInputs.add(id);
    }
    // A pause asked for before this boundary stops the run here, however recently the beat looked.
    await this.#supervisor.takeControls();
    if (this.#supervisor.pauseRequested) throw new SuspendRun('paused');
  }

  /** Checkpoints where the run stops anyway (its end, a wait for a human): a pause changes nothing there. */
  async saveIgnoringPause(stepId: string | null): Promise<void> {
    await this.save(stepId).catch((error) => {
      if (!(error instanceof SuspendRun)) throw error;
    });
  }
}
