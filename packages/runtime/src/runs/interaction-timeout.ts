import type { Approval, JsonObject } from '../store/index.ts';

// The interaction timeout (config `interaction_timeout`, spec section 8 rule 6). An approval records its
// timeout in its detail when it is asked for, so any process can tell it expired without the run's config.

/** Who `decided_by` names for an approval that expired. */
export const expiredBy = 'interaction_timeout';

/** The detail fields an approval asked for with this timeout carries (none without a timeout). */
export function timeoutDetail(seconds: number | undefined): JsonObject {
  return seconds && seconds > 0 ? { timeout_seconds: seconds } : {};
}

/** When a pending approval expires (ms since the epoch); null when it waits as long as it takes. */
export function deadlineOf(approval: Approval): number | null {
  const seconds = approval.detail.timeout_seconds;
  if (typeof seconds !== 'number' || !(seconds > 0)) return null;
  return Date.parse(approval.created_at) + seconds * 1000;
}

export function isOverdue(approval: Approval, now: number): boolean {
  const deadline = deadlineOf(approval);
  return approval.status === 'pending' && deadline !== null && deadline <= now;
}

/** The reason an expired approval records, as the model and the user read it. */
export function expiryReason(approval: Approval): string {
  const seconds = approval.detail.timeout_seconds as number;
  return approval.kind === 'question'
    ? `nobody answered within ${seconds} seconds`
    : `nobody decided within ${seconds} seconds`;
}
