import { installErrorHandling, errorBody as serviceErrorBody } from '@keel/service';
import type { FastifyInstance } from 'fastify';
import { WorkbenchError, type WorkbenchErrorObject } from '../errors.ts';
import { storeFailure } from '../store/index.ts';

/** The one error body of every endpoint: `{"error": {"code", "message", "details"?}}`. */
export function errorBody(error: WorkbenchErrorObject): { error: WorkbenchErrorObject } {
  return serviceErrorBody(error);
}

/**
 * The services' one error handler with the workbench's errors: a WorkbenchError answers its code with the
 * status of the code table, a disk or database fault is 500 STORE_ERROR saying which (full, read-only,
 * locked), and an over-limit body is 413 PAYLOAD_TOO_LARGE.
 */
export function installErrorHandler(app: FastifyInstance): void {
  installErrorHandling(app, {
    known: (error: unknown) =>
      WorkbenchError.is(error) ? { status: error.status, error: error.toJSON() } : undefined,
    fault: (error) => storeFailure(error)?.toJSON(),
  });
}
