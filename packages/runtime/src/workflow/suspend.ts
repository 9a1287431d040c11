/**
 * Thrown to stop a run at a safe boundary without failing it: it waits for a human (`waiting`) or was
 * asked to pause (`paused`). The state was checkpointed before it was thrown.
 */
export class SuspendRun extends Error {
  readonly reason: 'waiting' | 'paused';

  constructor(reason: 'waiting' | 'paused') {
    super(reason === 'waiting' ? 'The run waits for a human.' : 'The run was paused.');
    this.name = 'SuspendRun';
    this.reason = reason;
  }
}
