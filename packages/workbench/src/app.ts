import cors from '@fastify/cors';
import websocket from '@fastify/websocket';
import { clientMessage, serverMessage, workbenchComponents } from '@keel/protocol/workbench';
import {
  checkBind,
  frameworkOptions,
  healthRoutes,
  installApiDocs,
  logServerErrors,
  type ServiceLog,
} from '@keel/service';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { installBodyParsers, installErrorHandler, installGuard } from './http/index.ts';
import type { PreviewTimings } from './previews/index.ts';
import { apiTags, registerRoutes } from './routes.ts';
import type { RunnerRegistry } from './runners/index.ts';
import { createServices, type Services } from './services.ts';
import { spaRoutes } from './spa/index.ts';
import type { WorkbenchStore } from './store/index.ts';
import type { StageModule } from './tasks/index.ts';
import { version } from './version.ts';

export interface WorkbenchOptions {
  /** Data directory; default `WORKBENCH_HOME` from `env`, else `~/.workbench`. */
  home?: string;
  /** The environment the workbench reads (default `process.env`); also passed to the Keel runner. */
  env?: Record<string, string | undefined>;
  /** First wait between two reads of a submitted merge request, in ms (default 30 s, doubling to 10 min). */
  mergeRequestPollMs?: number;
  /**
   * The store of every record (any dialect of `WorkbenchStore`; the workbench closes it on close). Default:
   * PostgreSQL when `WORKBENCH_DATABASE_URL` is set (`@keel/store-postgres`), else SQLite in the data
   * directory.
   */
  store?: WorkbenchStore;
  /** Replaces the runner registry (tests, embedding); default: the built-in runners. */
  runners?: RunnerRegistry;
  /**
   * The stages of the task flow, in order (default `defaultStages`: the spec's five). The table of moves,
   * `GET /api/flow` and the stages' routes are built from it (README: "Adding a stage").
   */
  stages?: readonly StageModule[];
  /** Port `listen()` uses when given none (default 8000; 0 = any free port). */
  port?: number;
  /** Address `listen()` uses (default 127.0.0.1: loopback unless told otherwise). */
  host?: string;
  /** Host names answered besides loopback, over `WORKBENCH_ALLOWED_HOSTS` (`--allowed-host`). */
  allowedHosts?: string[];
  /** Lets `listen()` bind beyond loopback without `WORKBENCH_AUTH_API_KEY` (`--insecure-no-auth`). */
  insecureNoAuth?: boolean;
  /** Fastify's request log (default off). */
  logger?: boolean;
  /**
   * The service log (`keel-workbench run` makes one: stderr and `logs/workbench.log`): answers of 500 and
   * background failures (a knowledge layer, an init step, a todo, a session…) with their ids. Default none.
   */
  serviceLog?: ServiceLog;
  /**
   * Largest request body in bytes (default 40 MiB: tasks carry base64 images). A larger one is answered
   * 413 PAYLOAD_TOO_LARGE, which the client receives once it has sent the body (up to 4 times the limit;
   * see @keel/service).
   */
  bodyLimit?: number;
  /** The built SPA to serve at `/` (default: `dist/` of the installed `@keel/workbench-web`). */
  spaDir?: string;
  /** A preview's stop grace period and port probe interval (default 5 s and 250 ms; tests shorten them). */
  previewTimings?: PreviewTimings;
}

export interface Workbench {
  app: FastifyInstance;
  services: Services;
  /**
   * Listens and answers the base URL, e.g. `http://127.0.0.1:8000`. Refuses an address beyond loopback
   * without an API key (unless `insecureNoAuth`); `warning` is set when it listens open on purpose.
   */
  listen(port?: number, host?: string): Promise<string>;
  /** The loud warning of a service listening beyond loopback without a key, once `listen()` did. */
  warning?: string;
  /** Stops running sessions, the timers and the server, then closes the database. */
  close(): Promise<void>;
}

/**
 * The workbench service: REST + one WebSocket over its data directory. Repairs what a crash left behind
 * before it answers anything (sessions left running are marked failed).
 *
 * @example
 * const workbench = await createWorkbench({ home: '/tmp/wb', port: 0 });
 * const url = await workbench.listen();
 */
export async function createWorkbench(options: WorkbenchOptions = {}): Promise<Workbench> {
  const services = await createServices(options);
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimit ?? 40 * 1024 * 1024,
    ...frameworkOptions,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  // Before every route: its hooks reach the routes registered after it.
  if (options.serviceLog) logServerErrors(app, options.serviceLog);
  // An empty body is no body, whatever its content type (body-less actions sent as JSON by many clients).
  installBodyParsers(app);
  // First of all hooks: foreign Hosts and Origins are refused before CORS or any route sees them.
  const authorized = installGuard(app, {
    apiKey: services.config.apiKey,
    allowedHosts: [...services.config.allowedHosts, ...(options.allowedHosts ?? [])],
    corsOrigins: services.config.corsOrigins,
  });
  // Not strict: a bare OPTIONS (no Origin) gets an empty 204 rather than the plugin's plain-text 400.
  await app.register(cors, {
    origin: services.config.corsOrigins,
    credentials: true,
    strictPreflight: false,
  });
  await installApiDocs(app, {
    title: 'Keel workbench API',
    version,
    description:
      'The local AI development workbench: projects, tasks, the five-stage flow, sessions. ' +
      '`WS /api/ws` (one connection, many subscriptions to `session:{id}` and `task:{id}`; `?token=` for the key): ' +
      'what a client sends is `components.schemas.WsClientMessage`, what the service sends `WsServerMessage`. ' +
      'Every schema here is also in `@keel/protocol/workbench`.',
    messages: { WsClientMessage: clientMessage, WsServerMessage: serverMessage },
    components: workbenchComponents,
    tags: apiTags,
  });
  await app.register(healthRoutes(version));
  await app.register(websocket);
  await registerRoutes(app, services, authorized);
  // The browser app at `/` (its files are public; everything it fetches goes through /api and the key).
  await app.register(async (scope) => spaRoutes(scope, options.spaDir));
  await services.start();
  app.addHook('onClose', async () => {
    await services.close();
  });
  const workbench: Workbench = {
    app,
    services,
    async listen(port = options.port ?? 8000, host = options.host ?? '127.0.0.1') {
      const bind = checkBind({
        host,
        hasKey: Boolean(services.config.apiKey),
        insecureNoAuth: options.insecureNoAuth === true,
        service: 'the workbench',
        keyHint: 'WORKBENCH_AUTH_API_KEY',
      });
      if (bind.refusal) throw new Error(bind.refusal);
      if (bind.warning) workbench.warning = bind.warning;
      await app.listen({ port, host });
      const address = app.server.address();
      const shownHost = host.includes(':') ? `[${host}]` : host;
      return typeof address === 'object' && address ? `http://${shownHost}:${address.port}` : String(address);
    },
    close: () => app.close(),
  };
  return workbench;
}
