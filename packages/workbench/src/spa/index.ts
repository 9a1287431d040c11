import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Where the built SPA is: `dist/` of `@keel/workbench-web` (a dependency), or undefined when it is not
 * installed or not built (then `/` explains that, and the API and /docs work as ever).
 */
export function findSpaDir(): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve('@keel/workbench-web/package.json');
    const dist = join(dirname(manifest), 'dist');
    return existsSync(join(dist, 'index.html')) ? dist : undefined;
  } catch {
    return undefined;
  }
}

/** Paths that belong to the service, never to the SPA's client-side router. */
const servicePaths = /^\/(api|docs|health)(\/|$)/;

/**
 * Serves the SPA at `/`: its files as they are, and `index.html` for any other GET that is not the
 * service's (a reload on `/tasks/42` opens the SPA there). An unknown `/api/...` path still gets the
 * service's 404 in the error shape.
 */
export async function spaRoutes(app: FastifyInstance, dir = findSpaDir()): Promise<void> {
  if (!dir || !existsSync(join(dir, 'index.html'))) {
    app.get('/', { schema: { hide: true } }, (_request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .send(
          '<!doctype html><title>Keel workbench</title><p>The workbench is running, but its web page is not built: run <code>npm run build</code> in the Keel repository (or install <code>@keel/workbench-web</code>). The API is at <a href="/docs">/docs</a>.</p>',
        ),
    );
    return;
  }
  await app.register(fastifyStatic, { root: dir, prefix: '/', wildcard: false, index: ['index.html'] });
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (servicePaths.test(path) || /\.[a-z0-9]+$/i.test(path)) return reply.callNotFound();
    return reply.sendFile('index.html');
  });
}
