import type { FastifyRequest } from 'fastify';

/**
 * Whether a request may choose a program the service runs (a runner's binary and arguments, an MCP
 * server's command, a repository's check): decided by the request guard, asked by the routes that know
 * which fields choose a program. Being on the CORS list lets a page change ordinary settings; choosing what
 * runs needs more, because any dev server the user runs on a listed port could be hostile.
 */
export type Privilege =
  | { privileged: true; why: 'no_origin' | 'own_origin' | 'api_key' }
  | { privileged: false; origin: string; service: string; keyHint: string };

// Keyed by the request object: set once by the guard's hook, read by the route's handler.
const decisions = new WeakMap<FastifyRequest, Privilege>();

export function recordPrivilege(request: FastifyRequest, privilege: Privilege): void {
  decisions.set(request, privilege);
}

/** What to answer a request that tried a privileged change it may not make. */
export interface PrivilegeRefusal {
  message: string;
  details: { reason: string; origin?: string; fields: string[] };
}

/**
 * Undefined when `request` may make the privileged change that `fields` names (no fields: nothing to
 * decide); otherwise the refusal, saying what was refused, why, and how to make the change on purpose.
 * A request no guard saw is refused: failing open here would let any route that forgets the guard run code.
 */
export function privilegedChangeRefusal(
  request: FastifyRequest,
  fields: readonly string[],
): PrivilegeRefusal | undefined {
  if (fields.length === 0) return undefined;
  const decision = decisions.get(request);
  const shown = fields.slice(0, 10);
  if (decision === undefined) {
    return {
      message: `Changing ${shown.join(', ')} is refused: no request guard judged this request.`,
      details: { reason: 'no_request_guard', fields: shown },
    };
  }
  if (decision.privileged) return undefined;
  const origin = decision.origin.slice(0, 100);
  return {
    message:
      `Changing ${shown.join(', ')} from the page at '${origin}' is refused: these fields choose a program ` +
      `${decision.service} runs (a runner's binary_path, extra_args or env; an MCP server's command, args ` +
      "or env; a repository's check commands; trusting a repository's own config), and a page on another " +
      'origin may change them only with the API key, even when its origin is allowed for other settings. ' +
      `To make this change on purpose: use ${decision.service}'s own page (its own address, not the ` +
      `other origin), the CLI or curl (no Origin header), or set an API key (${decision.keyHint}) and send it.`,
    details: { reason: 'privileged_change_from_other_origin', origin, fields: shown },
  };
}
