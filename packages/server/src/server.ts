import { homedir } from 'node:os';
import websocket from '@fastify/websocket';
import {
  chatClientMessage,
  chatServerMessage,
  runtimeComponents,
  wsClientMessage,
  wsServerMessage,
} from '@keel/protocol/runtime';
import type { Run, Runtime, RuntimeOptions } from '@keel/runtime';
import { loadConfig, readEnv } from '@keel/runtime/internal';
import {
  frameworkOptions,
  healthRoutes,
  installApiDocs,
  logServerErrors,
  type ServiceLog,
} from '@keel/service';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { AuditRecorder } from './audit-recorder.ts';
import { installGuard, listFromEnv } from './auth.ts';
import { installErrorHandling } from './errors.ts';
import { watchOrphans } from './orphan-watch.ts';
import { installRateLimit, type RateLimitOverrides, rateLimitSettings } from './rate-limit.ts';
import { installRequestAudit, recordAuthFailure } from './request-audit.ts';
import { agentRoutes } from './routes/agents.ts';
import { apiTags } from './routes/api-tags.ts';
import { registerChatSockets } from './routes/chat-socket.ts';
import { configRoutes } from './routes/config.ts';
import { consoleRoutes } from './routes/console.ts';
import { directoryRoutes } from './routes/directories.ts';
import { metricsRoutes } from './routes/metrics.ts';
import { projectRoutes } from './routes/projects.ts';
import { runRoutes } from './routes/run.ts';
import { runtimeEventRoutes, streamIdleMs } from './routes/runtime-events.ts';
import { runtimeRecordRoutes } from './routes/runtime-records.ts';
import { runtimeRunRoutes } from './routes/runtime-runs.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { skillRoutes } from './routes/skills.ts';
import { taskRoutes } from './routes/tasks.ts';
import { registerWebSocket } from './routes/websocket.ts';
import { RuntimePool } from './runtime-pool.ts';
import { apiRevision, version } from './version.ts';

export interface ServerOptions {
  /**
   * How the server's runtimes are made (model, runtime directory, environment…). `trustProjectConfig`
   * decides whether a workdir's `.runtime/config.json` applies its security-relevant keys (default: the
   * global `trusted_folders`; `keel-web run --trust-project-config` sets it to true).
   */
  runtime?: RuntimeOptions;
  /** The directory whose configuration picks the store for requests that name none (default: cwd). */
  workdir?: string;
  /** Requires `Authorization: Bearer <key>` (default: `RUNTIME_AUTH_API_KEY` from the environment). */
  apiKey?: string;
  /** Host names answered besides loopback (default: `RUNTIME_ALLOWED_HOSTS`, comma separated). */
  allowedHosts?: string[];
  /** Origins besides its own that may change state or open a WebSocket (default: `RUNTIME_ALLOWED_ORIGINS`). */
  allowedOrigins?: string[];
  /** How long an event stream may stay quiet before it ends (default 10 minutes). */
  streamIdleMs?: number;
  /** The clock of the guard's wrong-key window (default: the runtime's `now`, then the wall clock). */
  now?: () => number;
  /** Fastify's request log (default off). */
  logger?: boolean;
  /**
   * The service log (`keel-web run` makes one: stderr and `logs/keel-web.log` in the runtime directory):
   * answers of 500 and audit entries not recorded. Default none.
   */
  serviceLog?: ServiceLog;
  /**
   * Largest request body in bytes (default 1 MiB). A larger one is answered 413 PAYLOAD_TOO_LARGE, which
   * the client receives once it has sent the body (up to 4 times the limit; see @keel/service).
   */
  bodyLimit?: number;
  /**
   * Window and request count of the rate limit, over configuration `rate_limit.window_seconds` and
   * `rate_limit.max_requests`; the limit itself is on only with `rate_limit.enabled: true`.
   */
  rateLimit?: RateLimitOverrides;
  /** The built browser console served at `/console` (default: `dist/console/` of `@keel/workbench-web`). */
  consoleDir?: string;
}

/**
 * The Keel web server: the runtime over HTTP. It keeps no run state of its own; every endpoint reads and
 * writes the same store as the SDK and `keel` on the same workdir. Close it with `app.close()`, which
 * also closes its runtimes.
 */
export async function createServer(options: ServerOptions = {}): Promise<FastifyInstance> {
  const env = options.runtime?.env ?? process.env;
  const log = options.serviceLog;
  const pool = new RuntimePool({
    ...options.runtime,
    workdir: options.workdir ?? process.cwd(),
    // A run that keel-web executed and that failed is a line of its log, with its ids and why.
    ...(log ? { onRunEnded: (run: Run) => logEndedRun(log, run) } : {}),
    // Unless it only queues, keel-web also executes the runs whose worker or server died.
    ...(options.runtime?.queueOnly ? {} : { started: (runtime: Runtime) => watchOrphans(runtime, log) }),
  });
  // The server's own store is watched from the start, before any request reaches it; a runtime that
  // cannot be made yet (its database unusable) is made, and watched, by the first request that works.
  if (!options.runtime?.queueOnly) {
    try {
      pool.for();
    } catch {
      // That request answers the error.
    }
  }
  const runtimeDir = options.runtime?.runtimeDir ?? readEnv(env).home;
  // Read once at start: a broken configuration stops the server here, with the file named.
  const rateLimit = rateLimitSettings(
    loadConfig(runtimeDir, pool.workdir, options.runtime?.trustProjectConfig),
    options.rateLimit,
  );
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    ...frameworkOptions,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  // Before every route: its hooks reach the routes registered after it.
  if (options.serviceLog) logServerErrors(app, options.serviceLog);
  // Spec section 5: authentication, then rate limit, then audit (each an onRequest hook, in this order);
  // the guard also refuses foreign Hosts and Origins before anything else runs (docs/security.md).
  const audit = new AuditRecorder(async () => pool.for().store(), options.serviceLog);
  const authorizeSocket = installGuard(app, {
    apiKey: options.apiKey ?? (env.RUNTIME_AUTH_API_KEY || undefined),
    allowedHosts: options.allowedHosts ?? listFromEnv(env.RUNTIME_ALLOWED_HOSTS),
    allowedOrigins: options.allowedOrigins ?? listFromEnv(env.RUNTIME_ALLOWED_ORIGINS),
    onAuthFailure: (request, reason) => recordAuthFailure(audit, request, reason, pool.workdir),
    now: options.now ?? guardClock(options.runtime?.now),
  });
  if (rateLimit) installRateLimit(app, rateLimit);
  installRequestAudit(app, audit, pool.workdir);
  // Before the routes: the OpenAPI document is collected from their zod schemas as they register.
  await installApiDocs(app, {
    title: 'Keel runtime API',
    // The API's revision (spec section 9), not the package's version, which /health reports.
    version: apiRevision,
    description:
      `The Keel agent runtime over HTTP (keel-web ${version}). ` +
      '`WS /ws` (one conversation per connection; `?token=` or `Authorization: Bearer` for the key, ' +
      '`?session_id=&after=<seq>` to follow a run again after a reconnect): what a client sends is ' +
      '`components.schemas.WsClientMessage`, what the server sends `WsServerMessage` (`start`, the run events ' +
      'each with its `seq`, `resuming`, `error`, `pong`). The chats `WS /ws/chat/{project_id}` and ' +
      '`WS /ws/chat/task/{task_id}` speak `WsChatClientMessage` and `WsChatServerMessage` (`ready` first). ' +
      'Every schema here is also in `@keel/protocol/runtime`.',
    messages: {
      WsClientMessage: wsClientMessage,
      WsServerMessage: wsServerMessage,
      WsChatClientMessage: chatClientMessage,
      WsChatServerMessage: chatServerMessage,
    },
    components: runtimeComponents,
    tags: apiTags,
  });
  await app.register(healthRoutes(version));
  await app.register(runtimeRunRoutes(pool));
  await app.register(runtimeRecordRoutes(pool));
  const idleMs = options.streamIdleMs ?? streamIdleMs;
  await app.register(runtimeEventRoutes(pool, { idleMs }));
  await app.register(runRoutes(pool, { idleMs }));
  await app.register(sessionRoutes(pool));
  await app.register(skillRoutes(pool));
  await app.register(agentRoutes(pool));
  await app.register(metricsRoutes(pool));
  await app.register(configRoutes(pool, { runtimeDir, env, runtime: options.runtime }));
  await app.register(consoleRoutes(pool, options.consoleDir ? { dir: options.consoleDir } : {}));
  await app.register(directoryRoutes({ home: () => env.HOME || homedir() }));
  await app.register(projectRoutes(pool));
  await app.register(taskRoutes(pool));
  await app.register(websocket);
  await app.register(async (scope) => registerWebSocket(scope, pool, { authorized: authorizeSocket }));
  await app.register(async (scope) => registerChatSockets(scope, pool, { authorized: authorizeSocket }));
  app.addHook('onClose', async () => {
    await audit.close();
    await pool.close();
  });
  return app;
}

/** The runtime's one clock as milliseconds, for the guard's windows. */
function guardClock(runtimeNow: (() => Date) | undefined): () => number {
  return runtimeNow ? () => runtimeNow().getTime() : Date.now;
}

/** A failed run on the service log (a succeeded, cancelled or paused one is not news there). */
function logEndedRun(log: ServiceLog, run: Run): void {
  if (run.status !== 'failed') return;
  log.warn('run failed', {
    run: run.id,
    session: run.session_id,
    code: run.error?.code ?? null,
    error: run.error?.message ?? null,
  });
}
