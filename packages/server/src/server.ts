import type { RuntimeOptions } from '@keel/runtime';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { installAuth } from './auth.ts';
import { installErrorHandling } from './errors.ts';
import { healthRoutes } from './routes/health.ts';
import { runRoutes } from './routes/run.ts';
import { runtimeEventRoutes, streamIdleMs } from './routes/runtime-events.ts';
import { runtimeRecordRoutes } from './routes/runtime-records.ts';
import { runtimeRunRoutes } from './routes/runtime-runs.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { RuntimePool } from './runtime-pool.ts';

export interface ServerOptions {
  /** How the server's runtimes are made (model, runtime directory, environment…). */
  runtime?: RuntimeOptions;
  /** The directory whose configuration picks the store for requests that name none (default: cwd). */
  workdir?: string;
  /** Requires `Authorization: Bearer <key>` (default: `RUNTIME_AUTH_API_KEY` from the environment). */
  apiKey?: string;
  /** How long an event stream may stay quiet before it ends (default 10 minutes). */
  streamIdleMs?: number;
  /** Fastify's request log (default off). */
  logger?: boolean;
}

/**
 * The Keel web server: the runtime over HTTP. It keeps no run state of its own; every endpoint reads and
 * writes the same store as the SDK and `keel` on the same workdir. Close it with `app.close()`, which
 * also closes its runtimes.
 */
export async function createServer(options: ServerOptions = {}): Promise<FastifyInstance> {
  const env = options.runtime?.env ?? process.env;
  const pool = new RuntimePool({ ...options.runtime, workdir: options.workdir ?? process.cwd() });
  const app = Fastify({ logger: options.logger ?? false }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  installAuth(app, options.apiKey ?? env.RUNTIME_AUTH_API_KEY);
  await app.register(healthRoutes());
  await app.register(runtimeRunRoutes(pool));
  await app.register(runtimeRecordRoutes(pool));
  const idleMs = options.streamIdleMs ?? streamIdleMs;
  await app.register(runtimeEventRoutes(pool, { idleMs }));
  await app.register(runRoutes(pool, { idleMs }));
  await app.register(sessionRoutes(pool));
  app.addHook('onClose', () => pool.close());
  return app;
}
