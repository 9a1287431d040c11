import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RuntimePool } from '../runtime-pool.ts';
import { version } from '../version.ts';

const dir = join(import.meta.dirname, '..', '..', 'console');
/** The console's files, read once: a handful of small static files, served from memory. */
const files = {
  'index.html': 'text/html; charset=utf-8',
  'console.js': 'text/javascript; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
} as const;

/**
 * The browser console: a page over the same runtime API, at `/console` (and `/`). The page and its
 * assets are open, like `/docs`; everything it shows comes from the API, which asks for the key.
 */
export function consoleRoutes(pool: RuntimePool): FastifyPluginAsyncZod {
  const contents = Object.fromEntries(
    Object.keys(files).map((name) => [name, readFileSync(join(dir, name), 'utf8')]),
  ) as Record<keyof typeof files, string>;
  return async (app) => {
    const serve = (name: keyof typeof files) =>
      app.get(
        name === 'index.html' ? '/console' : `/console/${name}`,
        { schema: { hide: true } },
        async (_request, reply) =>
          reply.type(files[name]).header('cache-control', 'no-cache').send(contents[name]),
      );
    for (const name of Object.keys(files) as (keyof typeof files)[]) serve(name);
    app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/console'));
    app.get('/console/info', async () => ({ version, workdir: pool.workdir }));
  };
}
