/**
 * Thrown to stop a run at a safe boundary without failing it: it waits for a human or for a sub-agent
 * (`waiting`), or was asked to pause (`paused`). The state was checkpointed before it was thrown.
 */
export class SuspendRun extends Error {
  readonly reason: 'waiting' | 'paused';
  /**
   * For a wait on something other than approvals (a sub-agent to finish): whether it is over. A run that
   * finds it over once it is `waiting` goes straight back to the queue, as one whose approval was decided
   * meanwhile does.
   */
  readonly ready: (() => Promise<boolean>) | undefined;

  constructor(reason: 'waiting' | 'paused', ready?: () => Promise<boolean>) {
    super(reason === 'waiting' ? 'The run waits for a human or a sub-agent.' : 'The run was paused.');
    this.name = 'SuspendRun';
    this.reason = reason;
    this.ready = ready;
  }
}
