import { storeFaultOf, toStoreError } from '@keel/runtime/errors';
import { WorkbenchError } from '../errors.ts';

/**
 * A disk or database fault (full disk, read-only file or file system, a lock another process held too
 * long, a damaged file) as a 500 STORE_ERROR that says which, with `details.reason` and `details.code`
 * (SQLITE_FULL, ENOSPC, …); undefined for any other error. Built by the runtime's `toStoreError`, so both
 * services word these faults alike. `what` names the operation.
 */
export function storeFailure(error: unknown, what?: string): WorkbenchError | undefined {
  if (WorkbenchError.is(error)) return undefined;
  const fault = storeFaultOf(error);
  if (!fault) return undefined;
  const sqlite = typeof (error as { errcode?: unknown }).errcode === 'number';
  // A file the workbench was refused is not always its own (a repository, a runner's binary): not a store fault.
  if (!sqlite && fault.reason === 'permission_denied') return undefined;
  const failure = toStoreError(
    error,
    what ?? (sqlite ? 'The workbench database failed' : 'The workbench could not write its files'),
  );
  return new WorkbenchError('STORE_ERROR', failure.message, failure.details);
}
