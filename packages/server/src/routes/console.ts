import { join } from 'node:path';
import { serverInfo, type ToolInfo } from '@keel/protocol/runtime';
import { createCodingTools } from '@keel/runtime';
import { builtAppRoutes, findBuiltApp, responses } from '@keel/service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RuntimePool } from '../runtime-pool.ts';
import { version } from '../version.ts';

/**
 * Where the built console is: `dist/console/` of `@keel/workbench-web` (the browser apps' package, a
 * dependency: the console is built there on the workbench SPA's UI kit), or undefined when it is not built.
 */
export function findConsoleDir(): string | undefined {
  return findBuiltApp(import.meta.url, '@keel/workbench-web', join('dist', 'console'));
}

/**
 * The runtime's built-in tools with what each does (its traits' kind), for `/console/info`: the console shows
 * a call by what its tool does, with no table of names of its own. Tools a run adds (the MCP and agent meta
 * tools, skills) are not built in, so not listed.
 */
function toolCatalogue(): ToolInfo[] {
  const tools = createCodingTools();
  return tools.list().map((tool) => ({ name: tool.name, kind: tools.traitsOf(tool.name).kind }));
}

const notBuilt =
  '<!doctype html><meta charset="utf-8"><title>Keel console</title><p>keel-web is running, but its console is not built: run <code>npm run build</code> in the Keel repository (or install <code>@keel/workbench-web</code>). The API is at <a href="/docs">/docs</a>.</p>';

/**
 * The browser console at `/console` (and `/`, which redirects there): the built app from `@keel/workbench-web`
 * served as every built app of Keel's services is (`builtAppRoutes`). `/console/info` tells it the server's
 * version, workdir and tools, behind the key like the rest of the API.
 */
export function consoleRoutes(pool: RuntimePool, options: { dir?: string } = {}): FastifyPluginAsyncZod {
  const served = builtAppRoutes({ dir: options.dir ?? findConsoleDir(), base: '/console', notBuilt });
  return async (app) => {
    await served(app);
    app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/console'));
    const tools = toolCatalogue();
    const schema = {
      tags: ['server'],
      operationId: 'getConsoleInfo',
      summary: "The server's version and workdir, and the built-in tools by what they do, for the console",
      response: responses(serverInfo),
    };
    app.get('/console/info', { schema }, async () => ({
      version,
      workdir: pool.workdir,
      tools,
    }));
  };
}
