import { InvalidStateError } from '@keel/runtime/errors';
import type { RunStatus } from '@keel/runtime/store/contract';

/** "a", "a or b", "a, b or c": the allowed states as the error message names them. */
function either(statuses: readonly string[]): string {
  if (statuses.length <= 1) return statuses[0] ?? 'none';
  return `${statuses.slice(0, -1).join(', ')} or ${statuses.at(-1)}`;
}

/** The error of a guarded change on a run in another state, worded as every store words it. */
export function wrongRunState(
  runId: string,
  status: RunStatus,
  allowed: readonly RunStatus[],
): InvalidStateError {
  return new InvalidStateError(
    `Run '${runId}' is ${status}; this applies only to a run that is ${either(allowed)}.`,
    { run_id: runId, status, allowed: [...allowed] },
  );
}

/** The error of a change guarded by a lease the caller does not hold. */
export function leaseNotHeld(
  run: { id: string; status: RunStatus; lease_owner: string | null },
  change: { from: readonly RunStatus[]; to: RunStatus; owner: string },
): InvalidStateError {
  const holder = run.lease_owner ? `'${run.lease_owner}'` : 'no worker';
  return new InvalidStateError(
    `Run '${run.id}' is held by ${holder}, not '${change.owner}'; only the lease holder may move it to ${change.to}.`,
    {
      run_id: run.id,
      status: run.status,
      allowed: [...change.from],
      owner: change.owner,
      lease_owner: run.lease_owner,
    },
  );
}
