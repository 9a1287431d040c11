import type { MergeRequestCheck, MergeRequestStatus } from './types.ts';

/**
 * One word for all checks: a failure (or cancellation) wins over anything still running, and "passed"
 * needs at least one check, so a repository without CI reads "none", never a vacuous pass.
 */
export function checksState(checks: readonly MergeRequestCheck[]): MergeRequestStatus['checks_state'] {
  if (checks.length === 0) return 'none';
  if (checks.some((check) => check.status === 'failed' || check.status === 'cancelled')) return 'failed';
  if (checks.some((check) => check.status === 'pending' || check.status === 'running')) return 'pending';
  return 'passed';
}
