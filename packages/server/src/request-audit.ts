import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditRecorder } from './audit-recorder.ts';

/** Health probes come every few seconds and say nothing about who did what: not audited. */
const unaudited = new Set(['/health', '/api/health']);

/** The request's method and path; never the query string, which may carry a token. */
function summaryOf(request: FastifyRequest): string {
  return `${request.method} ${request.url.split('?')[0] ?? ''}`.slice(0, 500);
}

/** The run or session a request is plainly about, from its route. */
function subjectOf(request: FastifyRequest): { run_id: string | null; session_id: string | null } {
  const route = request.routeOptions.url ?? '';
  const params = (request.params ?? {}) as Record<string, unknown>;
  const param = (prefix: string, name: string) =>
    route.startsWith(prefix) && typeof params[name] === 'string' ? params[name] : null;
  return {
    run_id: param('/runtime/runs/:id', 'id'),
    session_id: param('/sessions/:session_id', 'session_id'),
  };
}

/**
 * Records every request that got this far as audit event `api_request`, with its status, once its
 * response ends (or its client leaves). Installed after authentication and the rate limit, so
 * refused requests never reach it (spec section 5: authentication, then rate limit, then audit).
 */
export function installRequestAudit(app: FastifyInstance, recorder: AuditRecorder, workdir: string): void {
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    // The API docs page and its assets are reading material, not actions.
    if (unaudited.has(path) || path === '/docs' || path.startsWith('/docs/')) return;
    // 'close' rather than onResponse: it also fires for streams whose client went away mid-way.
    reply.raw.once('close', () => {
      const status = reply.raw.statusCode;
      recorder.record({
        event: 'api_request',
        tool_name: null,
        args_summary: summaryOf(request),
        result_summary: String(status),
        success: status < 400,
        ...subjectOf(request),
        workdir,
      });
    });
  });
}

/** Records a refused authentication as audit event `auth_failure`: the path and why, never the key. */
export function recordAuthFailure(
  recorder: AuditRecorder,
  request: FastifyRequest,
  reason: string,
  workdir: string,
): void {
  recorder.record({
    event: 'auth_failure',
    tool_name: null,
    args_summary: summaryOf(request),
    result_summary: `401 ${reason}`,
    success: false,
    run_id: null,
    session_id: null,
    workdir,
  });
}
