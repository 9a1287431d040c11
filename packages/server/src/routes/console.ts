import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { serverInfo, type ToolInfo } from '@keel/protocol/runtime';
import { createCodingTools } from '@keel/runtime';
import { responses } from '@keel/service';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RuntimePool } from '../runtime-pool.ts';
import { version } from '../version.ts';

/**
 * Where the built console is: `dist/console/` of `@keel/workbench-web` (the browser apps' package, a
 * dependency: the console is built there on the workbench SPA's UI kit), or undefined when it is not built.
 */
export function findConsoleDir(): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve('@keel/workbench-web/package.json');
    const dir = join(dirname(manifest), 'dist', 'console');
    return existsSync(join(dir, 'index.html')) ? dir : undefined;
  } catch {
    return undefined;
  }
}

const mediaTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};
const compressible = new Set(['.html', '.js', '.css', '.json', '.svg']);

interface ConsoleFile {
  type: string;
  body: Buffer;
  /** The gzipped body, for clients that accept it, when that is smaller. */
  gzipped?: Buffer;
}

/** The console's files, read (and gzipped) once at start: a page and a few hashed assets, about 0.5 MB. */
function loadFiles(dir: string): Map<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>();
  const walk = (folder: string, prefix: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const name = `${prefix}${entry.name}`;
      if (entry.isDirectory()) walk(join(folder, entry.name), `${name}/`);
      else {
        const extension = extname(entry.name);
        const body = readFileSync(join(folder, entry.name));
        const gzipped = compressible.has(extension) ? gzipSync(body, { level: 9 }) : undefined;
        files.set(name, {
          type: mediaTypes[extension] ?? 'application/octet-stream',
          body,
          ...(gzipped && gzipped.length < body.length ? { gzipped } : {}),
        });
      }
    }
  };
  walk(dir, '');
  return files;
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
 * and its assets, from memory, gzipped when the client accepts it. The page and its assets are open, like
 * `/docs`; everything it shows comes from the API, which asks for the key (`/console/info` too).
 */
export function consoleRoutes(pool: RuntimePool, options: { dir?: string } = {}): FastifyPluginAsyncZod {
  const dir = options.dir ?? findConsoleDir();
  const files = dir && existsSync(join(dir, 'index.html')) ? loadFiles(dir) : undefined;
  const send = (request: FastifyRequest, reply: FastifyReply, file: ConsoleFile, cache: string) => {
    reply.type(file.type).header('cache-control', cache).header('vary', 'accept-encoding');
    const accepts = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    return file.gzipped && accepts
      ? reply.header('content-encoding', 'gzip').send(file.gzipped)
      : reply.send(file.body);
  };
  return async (app) => {
    const page = async (request: FastifyRequest, reply: FastifyReply) => {
      const index = files?.get('index.html');
      if (!index)
        return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(notBuilt);
      return send(request, reply, index, 'no-cache');
    };
    app.get('/console', { schema: { hide: true } }, page);
    app.get('/console/', { schema: { hide: true } }, page);
    // Asset names carry a hash of their content: a browser may keep them for good.
    app.get('/console/assets/*', { schema: { hide: true } }, async (request, reply) => {
      const name = (request.params as { '*': string })['*'];
      const file = files?.get(`assets/${name}`);
      if (!file) return reply.callNotFound();
      return send(request, reply, file, 'public, max-age=31536000, immutable');
    });
    app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/console'));
    const tools = toolCatalogue();
    app.get('/console/info', { schema: { response: responses(serverInfo) } }, async () => ({
      version,
      workdir: pool.workdir,
      tools,
    }));
  };
}
