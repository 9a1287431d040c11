import { privilegedChangeRefusal } from '@keel/service';
import type { FastifyRequest } from 'fastify';
import { WorkbenchError } from '../errors.ts';

/**
 * Refuses (403 PERMISSION_DENIED, `details.reason: "privileged_change_from_other_origin"`) a request that
 * changes `fields`, fields that choose a program the workbench runs, unless it may: no Origin (the CLI,
 * curl), the workbench's own page, or the API key. The request guard decided which; the routes name the
 * fields. No fields: nothing is asked of the request.
 */
export function requirePrivileged(request: FastifyRequest, fields: readonly string[]): void {
  const refusal = privilegedChangeRefusal(request, fields);
  if (refusal) throw new WorkbenchError('PERMISSION_DENIED', refusal.message, { ...refusal.details });
}
