import { installRequestGuard, type SocketAuthorizer } from '@keel/service';
import type { FastifyInstance } from 'fastify';

export type { SocketAuthorizer };

export interface GuardSettings {
  /** `WORKBENCH_AUTH_API_KEY`; undefined: no key. */
  apiKey: string | undefined;
  /** `WORKBENCH_ALLOWED_HOSTS` and `--allowed-host`. */
  allowedHosts: readonly string[];
  /** `WORKBENCH_CORS_ORIGINS`: the origins that may also change state and open the WebSocket. */
  corsOrigins: readonly string[];
}

/**
 * The workbench's request guard (Host, Origin, bearer key), the one both services share. Open without the
 * key: health, the API docs, and the browser app's own files (every route outside /api), which hold no
 * data; the app sends the key with each API call. Judged on the route the router matched, so a spelling
 * such as `/%61pi/settings` is `/api/settings` here too. The WebSocket may send its key as `?token=`.
 */
export function installGuard(app: FastifyInstance, settings: GuardSettings): SocketAuthorizer {
  return installRequestGuard(app, {
    service: 'the workbench',
    apiKey: settings.apiKey,
    allowedHosts: settings.allowedHosts,
    allowedOrigins: settings.corsOrigins,
    isOpenRoute: (route) => route === '/api/health' || !/^\/api(\/|$)/.test(route),
    isSocketRoute: (route) => route === '/api/ws',
    howToAllow: {
      host: 'start the workbench with --allowed-host <name> (or set WORKBENCH_ALLOWED_HOSTS, comma separated)',
      origin: 'add it to WORKBENCH_CORS_ORIGINS (comma separated)',
      key: 'WORKBENCH_AUTH_API_KEY',
    },
  });
}
