import cors from '@fastify/cors';
import websocket from '@fastify/websocket';
import { clientMessage, serverMessage, workbenchComponents } from '@keel/protocol/workbench';
import { checkBind, frameworkOptions, healthRoutes, installApiDocs, logServerErrors } from '@keel/service';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { installBodyParsers, installErrorHandler, installGuard } from './http/index.ts';
import type { WorkbenchOptions } from './options.ts';
import { apiTags, registerRoutes } from './routes.ts';
import { createServices, type Services } from './services.ts';
import { spaRoutes } from './spa/index.ts';
import { version } from './version.ts';

export type { WorkbenchOptions } from './options.ts';

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
