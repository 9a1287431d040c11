import { builtAppRoutes, findBuiltApp } from '@keel/service';
import type { FastifyInstance } from 'fastify';

/**
 * Where the built SPA is: `dist/` of `@keel/workbench-web` (a dependency), or undefined when it is not
 * installed or not built (then `/` explains that, and the API and /docs work as ever).
 */
export function findSpaDir(): string | undefined {
  return findBuiltApp(import.meta.url, '@keel/workbench-web', 'dist');
}

const notBuilt =
  '<!doctype html><title>Keel workbench</title><p>The workbench is running, but its web page is not built: run <code>npm run build</code> in the Keel repository (or install <code>@keel/workbench-web</code>). The API is at <a href="/docs">/docs</a>.</p>';

/**
 * The SPA at `/`, served as every built app of Keel's services is (`builtAppRoutes`): a reload on one of
 * its routes (`/tasks/42`) opens it there, while `/api`, `/docs` and `/health` stay the service's (an
 * unknown `/api/...` path gets the service's 404 in the error shape).
 */
export async function spaRoutes(app: FastifyInstance, dir = findSpaDir()): Promise<void> {
  await builtAppRoutes({
    dir,
    base: '',
    notBuilt,
    clientRoutes: { servicePaths: /^\/(api|docs|health)(\/|$)/ },
  })(app);
}
