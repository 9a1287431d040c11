import { InvalidStateError } from '../errors/index.ts';
import { type Approval, finishedStatuses, type JsonObject, type Run, type RunStore } from '../store/index.ts';
import { loadCheckpointChain } from './checkpoint-chain.ts';
import { CheckpointCodec, decodeCheckpoints, isWhole } from './checkpoint-codec.ts';
import { deadlineOf, expiredBy, expiryReason, isOverdue } from './interaction-timeout.ts';
import { ownerIsDead } from './worker-id.ts';

/**
 * The run operations any process may perform: each checks the run's state, writes to the store, and
 * leaves the execution itself to whichever worker claims the run next.
 *
 * | operation | applies to          | next state                                          |
 * |-----------|---------------------|-----------------------------------------------------|
 * | pause     | queued, running     | paused (a running run at its next step boundary)    |
 * | resume    | paused, waiting     | queued (waiting: only once no approval is pending)  |
 * | cancel    | any run             | cancelled (a running run at once, via its worker);  |
 * |           |                     | an ended run is answered unchanged                  |
 * | retry     | failed, cancelled   | queued, attempt + 1, from the last checkpoint       |
 * | recover   | running, orphaned   | queued, from the last checkpoint                    |
 * | fork      | any checkpoint      | a new queued run with the history up to it          |
 *
 * An approval past its interaction timeout expires (decided `expired`) as a decision would, by whichever
 * process looks first: the one following the run, a worker, or anyone listing or deciding approvals.
 */
export class RunControls {
  readonly #store: RunStore;
  readonly #now: () => number;

  constructor(store: RunStore, now: () => number = Date.now) {
    this.#store = store;
    this.#now = now;
  }

  async #done(action: string, run: Run): Promise<Run> {
    await this.#audit(run, action);
    return run;
  }

  /** Records a control operation in the audit log (event `run_control`). */
  async #audit(run: Run, action: string, success = true): Promise<void> {
    await this.#store
      .recordAudit({
        event: 'run_control',
        tool_name: null,
        args_summary: action,
        result_summary: `${run.id} is ${run.status}`,
        session_id: run.session_id,
        run_id: run.id,
        workdir: run.workdir,
        success,
      })
      .catch(() => undefined);
  }

  async pause(runId: string): Promise<Run> {
    const run = await this.#store.getRun(runId);
    if (run.status === 'running') {
      await this.#store.requestControl(runId, 'pause');
      await this.#audit(run, 'pause requested');
      return run;
    }
    return this.#done('pause', await this.#store.transition(runId, { from: ['queued'], to: 'paused' }));
  }

  async resume(runId: string): Promise<Run> {
    const run = await this.#store.getRun(runId);
    if (run.status === 'waiting') {
      const pending = await this.#store.listApprovals({ run_id: runId, status: 'pending' });
      if (pending.length) {
        throw new InvalidStateError(
          `Run '${runId}' waits for approval ${pending.map((a) => `'${a.id}'`).join(', ')}: approve or reject it to resume the run.`,
          { run_id: runId, status: run.status, approvals: pending.map((a) => a.id) },
        );
      }
    }
    return this.#done(
      'resume',
      await this.#store.transition(runId, { from: ['paused', 'waiting'], to: 'queued' }),
    );
  }

  /**
   * Cancels the run: a worker holding it stops at once; one nobody holds is cancelled here. Cancel applies
   * to any run (spec section 3): one that has already ended is answered as it is, unchanged.
   */
  async cancel(runId: string): Promise<Run> {
    // A run can move between the read and the write (claimed, or ended): then look again.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#cancelOnce(runId);
      } catch (error) {
        if (!(error instanceof InvalidStateError) || attempt === 3) throw error;
      }
    }
  }

  async #cancelOnce(runId: string): Promise<Run> {
    const run = await this.#store.getRun(runId);
    if (finishedStatuses.includes(run.status)) {
      await this.#audit(run, `cancel: already ${run.status}, nothing to do`);
      return run;
    }
    if (run.status === 'running') {
      await this.#store.requestControl(runId, 'cancel');
      await this.#audit(run, 'cancel requested');
      return run;
    }
    const cancelled = await this.#store.transition(runId, {
      from: ['queued', 'waiting', 'paused'],
      to: 'cancelled',
      error: { code: 'CANCELLED', message: 'The run was cancelled.' },
    });
    for (const approval of await this.#store.listApprovals({ run_id: runId, status: 'pending' })) {
      await this.#store.decideApproval(approval.id, { status: 'cancelled' }).catch(() => undefined);
    }
    await this.#store.appendEvent(runId, { type: 'cancelled', session_id: run.session_id ?? '' });
    return this.#done('cancel', cancelled);
  }

  async retry(runId: string): Promise<Run> {
    return this.#done(
      'retry',
      await this.#store.transition(runId, {
        from: ['failed', 'cancelled'],
        to: 'queued',
        nextAttempt: true,
        error: null,
      }),
    );
  }

  async recover(runId: string): Promise<Run> {
    const run = await this.#store.getRun(runId);
    if (run.status === 'running' && !isOrphaned(run, this.#now())) {
      throw new InvalidStateError(
        `Run '${runId}' is running and its worker ${run.lease_owner} is alive (lease until ${run.lease_expires_at}); only an orphaned run can be recovered.`,
        { run_id: runId, status: run.status, lease_owner: run.lease_owner },
      );
    }
    return this.#done(
      'recover',
      await this.#store.transition(runId, { from: ['running'], to: 'queued', releaseLease: true }),
    );
  }

  /** A new run from a checkpoint: the history up to it is copied, then the run continues on its own. */
  async fork(checkpointId: string): Promise<Run> {
    const checkpoint = await this.#store.getCheckpoint(checkpointId);
    const origin = await this.#store.getRun(checkpoint.run_id);
    // Created paused so no worker claims it before its history is in place.
    const fork = await this.#store.createRun({
      session_id: origin.session_id,
      workdir: origin.workdir,
      prompt: origin.prompt,
      workflow: origin.workflow,
      input: origin.input,
      status: 'paused',
      forked_from: { run_id: origin.id, checkpoint_id: checkpoint.id },
    });
    for (let after = 0; after < checkpoint.seq; ) {
      const page = await this.#store.listEvents(origin.id, { after, limit: 500 });
      if (page.length === 0) break;
      for (const record of page) {
        if (record.seq > checkpoint.seq) break;
        await this.#store.appendEvent(fork.id, record.event as JsonObject & { type: string });
      }
      after = page.at(-1)!.seq;
    }
    // The origin's checkpoints hold changes: the fork starts from the full state at the chosen one.
    const state = decodeCheckpoints(await loadCheckpointChain(this.#store, origin.id, checkpoint.id))!;
    const encoded = new CheckpointCodec().encode(state);
    await this.#store.saveCheckpoint({
      run_id: fork.id,
      step_id: null,
      state: encoded,
      whole: isWhole(encoded),
    });
    return this.#done(
      `fork of ${origin.id} at ${checkpoint.id}`,
      await this.#store.transition(fork.id, { from: ['paused'], to: 'queued' }),
    );
  }

  /**
   * Decides an approval. When it was the last one the run waited for, the run goes back to the queue and
   * the next worker to claim it continues from its checkpoint.
   */
  async decide(
    approvalId: string,
    decision: { status: 'approved' | 'rejected' | 'answered'; reason?: string | null; by?: string | null },
  ): Promise<{ approval: Approval; run: Run }> {
    const current = await this.#store.getApproval(approvalId);
    if (isOverdue(current, this.#now())) {
      await this.#expire(current);
      throw new InvalidStateError(
        `Approval '${approvalId}' expired: ${expiryReason(current)} (interaction_timeout), so the run went on without it.`,
        { approval_id: approvalId, run_id: current.run_id, status: 'expired', allowed: ['pending'] },
      );
    }
    const approval = await this.#store.decideApproval(approvalId, {
      status: decision.status,
      answer: decision.reason ?? null,
      decided_by: decision.by ?? null,
    });
    return { approval, run: await this.#decided(approval, decision.reason ?? null) };
  }

  /**
   * Expires the pending approvals (of one run, or of all) whose interaction timeout has passed; their runs
   * go back to the queue. Returns the approvals expired, and how long until the next pending one expires
   * (null: none of them has a timeout).
   */
  async expireOverdue(runId?: string): Promise<{ expired: Approval[]; nextInMs: number | null }> {
    const now = this.#now();
    const pending = await this.#store.listApprovals({
      ...(runId ? { run_id: runId } : {}),
      status: 'pending',
      limit: 1000,
    });
    const expired: Approval[] = [];
    let nextInMs: number | null = null;
    for (const approval of pending) {
      const deadline = deadlineOf(approval);
      if (deadline === null) continue;
      if (deadline > now) {
        nextInMs = Math.min(nextInMs ?? Number.POSITIVE_INFINITY, deadline - now);
        continue;
      }
      const done = await this.#expire(approval);
      if (done) expired.push(done);
    }
    return { expired, nextInMs };
  }

  /** Records a timed-out approval as expired (unless someone decided it first) and continues its run. */
  async #expire(approval: Approval): Promise<Approval | null> {
    const reason = expiryReason(approval);
    const expired = await this.#store
      .decideApproval(approval.id, { status: 'expired', answer: reason, decided_by: expiredBy })
      .catch((error: unknown) => {
        if (error instanceof InvalidStateError) return null;
        throw error;
      });
    if (expired) await this.#decided(expired, reason);
    return expired;
  }

  /** After a decision: audits it and, when the run waits on nothing else, puts it back in the queue. */
  async #decided(approval: Approval, reason: string | null): Promise<Run> {
    let run = await this.#store.getRun(approval.run_id);
    await this.#audit(run, `${approval.status} ${approval.id}${reason ? `: ${reason}` : ''}`);
    const pending = await this.#store.listApprovals({ run_id: run.id, status: 'pending' });
    if (run.status === 'waiting' && pending.length === 0) {
      run = await this.#store.transition(run.id, { from: ['waiting'], to: 'queued' }).catch(async (error) => {
        // Another process resumed it first: fine, the decision is what counts.
        if (error instanceof InvalidStateError) return this.#store.getRun(approval.run_id);
        throw error;
      });
    }
    return run;
  }
}

/** Whether a running run lost its worker: the lease ran out, or its process on this host is gone. */
export function isOrphaned(run: Run, now: number = Date.now()): boolean {
  if (run.status !== 'running') return false;
  const expired = run.lease_expires_at === null || Date.parse(run.lease_expires_at) < now;
  return expired || ownerIsDead(run.lease_owner);
}
