import { InvalidParamsError } from '../errors/index.ts';
import type { RunControls } from '../runs/index.ts';
import type { Approval, ApprovalQuery, Run, RunStore } from '../store/index.ts';

/** Approvals runs wait on; deciding the last one puts the run back in the queue. */
export class ApprovalsApi {
  readonly #store: () => Promise<RunStore>;
  readonly #controls: () => Promise<RunControls>;

  constructor(store: () => Promise<RunStore>, controls: () => Promise<RunControls>) {
    this.#store = store;
    this.#controls = controls;
  }

  /** Newest first. Approvals past their interaction timeout are expired first (their runs continue). */
  async list(query: ApprovalQuery = {}): Promise<Approval[]> {
    await (await this.#controls()).expireOverdue(query.run_id);
    return (await this.#store()).listApprovals(query);
  }

  async get(id: string): Promise<Approval> {
    const approval = await (await this.#store()).getApproval(id);
    if (approval.status !== 'pending') return approval;
    await (await this.#controls()).expireOverdue(approval.run_id);
    return (await this.#store()).getApproval(id);
  }

  async approve(
    id: string,
    options: { reason?: string; by?: string } = {},
  ): Promise<{ approval: Approval; run: Run }> {
    return (await this.#controls()).decide(id, {
      status: 'approved',
      reason: options.reason ?? null,
      by: options.by ?? null,
    });
  }

  /**
   * Answers a question the run asked (`interaction_request` with kind `question`); the answer is the
   * `question` tool's result when the run continues.
   */
  async answer(
    id: string,
    answer: string,
    options: { by?: string } = {},
  ): Promise<{ approval: Approval; run: Run }> {
    if (!answer.trim()) throw new InvalidParamsError('answer must not be empty', { approval_id: id });
    return (await this.#controls()).decide(id, {
      status: 'answered',
      reason: answer,
      by: options.by ?? null,
    });
  }

  async reject(
    id: string,
    options: { reason?: string; by?: string } = {},
  ): Promise<{ approval: Approval; run: Run }> {
    return (await this.#controls()).decide(id, {
      status: 'rejected',
      reason: options.reason ?? null,
      by: options.by ?? null,
    });
  }
}
