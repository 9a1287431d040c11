import { installRequestGuard, type SocketAuthorizer } from '@keel/service';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Routes open without a key: the health check and the API docs (spec section 5), and the browser console's
 * page and assets, which then ask for the key (its data comes from the API, which needs it). Route
 * patterns as registered: the guard judges the route the router matched, never the raw URL.
 */
const openRoutes = new Set(['/health', '/', '/console', '/console/', '/console/assets/*']);
/** WebSocket routes: their handler asks the authorizer (header or `?token=`) and closes with 4001. */
const socketRoutes = new Set(['/ws', '/ws/chat/:project_id', '/ws/chat/task/:task_id']);

export interface GuardSettings {
  apiKey: string | undefined;
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
  /** Told of every refused key (for the audit log); `reason` never contains the offered key. */
  onAuthFailure?: (request: FastifyRequest, reason: string) => void;
  now?: () => number;
}

/** keel-web's request guard (Host, Origin, bearer key): the one both services share, with keel-web's routes. */
export function installGuard(app: FastifyInstance, settings: GuardSettings): SocketAuthorizer {
  return installRequestGuard(app, {
    service: 'keel-web',
    apiKey: settings.apiKey,
    allowedHosts: settings.allowedHosts,
    allowedOrigins: settings.allowedOrigins,
    isOpenRoute: (route) => openRoutes.has(route) || route === '/docs' || route.startsWith('/docs/'),
    isSocketRoute: (route) => socketRoutes.has(route),
    howToAllow: {
      host: 'start keel-web with --allowed-host <name> (or set RUNTIME_ALLOWED_HOSTS, comma separated)',
      origin:
        'start keel-web with --allowed-origin <origin> (or set RUNTIME_ALLOWED_ORIGINS, comma separated)',
      key: 'the key keel-web was started with, RUNTIME_AUTH_API_KEY',
    },
    ...(settings.onAuthFailure ? { onAuthFailure: settings.onAuthFailure } : {}),
    ...(settings.now ? { now: settings.now } : {}),
  });
}

/** Comma-separated list from an environment variable. */
export function listFromEnv(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}
