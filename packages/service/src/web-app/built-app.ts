import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The folder of a built browser app inside an installed package (`@keel/workbench-web`'s `dist/`, say),
 * resolved from the caller's own module (`from`: its `import.meta.url`), or undefined when the package is
 * not installed or the app not built (no `index.html`).
 */
export function findBuiltApp(from: string, packageName: string, folder: string): string | undefined {
  try {
    const manifest = createRequire(from).resolve(`${packageName}/package.json`);
    const dir = join(dirname(manifest), folder);
    return existsSync(join(dir, 'index.html')) ? dir : undefined;
  } catch {
    return undefined;
  }
}

export interface BuiltAppOptions {
  /** The built app's folder (its `index.html` and `assets/`), or undefined when it is not built. */
  dir: string | undefined;
  /** Where the page is served: `''` for the root, or a path such as `/console`. */
  base: '' | `/${string}`;
  /** The page shown instead when the app is not built: it says how to build it. */
  notBuilt: string;
  /**
   * For an app with routes of its own: a GET of any other path under `base` that is not a file and not
   * one of `servicePaths` opens the page (a reload on `/tasks/42` opens the app there).
   */
  clientRoutes?: { servicePaths: RegExp };
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

interface AppFile {
  type: string;
  body: Buffer;
  /** The gzipped body, for clients that accept it, when that is smaller. */
  gzipped?: Buffer;
}

/** Apps read so far, by folder, with the time of the build they hold (a new build is read again). */
const loaded = new Map<string, { built: number; files: Map<string, AppFile> }>();

/** The page and its assets, read and gzipped once per build: a built app is a few hundred kB. */
function loadApp(dir: string): Map<string, AppFile> {
  const built = statSync(join(dir, 'index.html')).mtimeMs;
  const known = loaded.get(dir);
  if (known?.built === built) return known.files;
  const files = readApp(dir);
  loaded.set(dir, { built, files });
  return files;
}

function readApp(dir: string): Map<string, AppFile> {
  const files = new Map<string, AppFile>();
  const add = (name: string, path: string) => {
    const extension = extname(name);
    const body = readFileSync(path);
    const gzipped = compressible.has(extension) ? gzipSync(body, { level: 9 }) : undefined;
    files.set(name, {
      type: mediaTypes[extension] ?? 'application/octet-stream',
      body,
      ...(gzipped && gzipped.length < body.length ? { gzipped } : {}),
    });
  };
  add('index.html', join(dir, 'index.html'));
  const walk = (folder: string, prefix: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(folder, entry.name), `${prefix}${entry.name}/`);
      else add(`${prefix}${entry.name}`, join(folder, entry.name));
    }
  };
  if (existsSync(join(dir, 'assets'))) walk(join(dir, 'assets'), 'assets/');
  return files;
}

/**
 * Serves a built browser app from memory: the page at `base` (never cached, so a new build shows at
 * once), its hashed assets under `base/assets/` (cached for good), each gzipped when the client accepts
 * it. Anything else is the service's 404, in its error shape. The page and assets are open, like `/docs`:
 * everything the app shows comes from the API, which asks for the key.
 */
export function builtAppRoutes(options: BuiltAppOptions): (app: FastifyInstance) => Promise<void> {
  const files = options.dir && existsSync(join(options.dir, 'index.html')) ? loadApp(options.dir) : undefined;
  const send = (request: FastifyRequest, reply: FastifyReply, file: AppFile, cache: string) => {
    reply.type(file.type).header('cache-control', cache).header('vary', 'accept-encoding');
    const accepts = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    return file.gzipped && accepts
      ? reply.header('content-encoding', 'gzip').send(file.gzipped)
      : reply.send(file.body);
  };
  return async (app) => {
    const index = files?.get('index.html');
    const page = async (request: FastifyRequest, reply: FastifyReply) =>
      index
        ? send(request, reply, index, 'no-cache')
        : reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(options.notBuilt);
    app.get(options.base || '/', { schema: { hide: true } }, page);
    if (options.base) app.get(`${options.base}/`, { schema: { hide: true } }, page);
    // Asset names carry a hash of their content: a browser may keep them for good.
    app.get(`${options.base}/assets/*`, { schema: { hide: true } }, async (request, reply) => {
      const name = (request.params as { '*': string })['*'];
      const file = files?.get(`assets/${name}`);
      if (!file) return reply.callNotFound();
      return send(request, reply, file, 'public, max-age=31536000, immutable');
    });
    const routes = options.clientRoutes;
    if (routes && index) {
      app.get(`${options.base}/*`, { schema: { hide: true } }, async (request, reply) => {
        const path = request.url.split('?')[0] ?? '/';
        if (routes.servicePaths.test(path) || /\.[a-z0-9]+$/i.test(path)) return reply.callNotFound();
        return page(request, reply);
      });
    }
  };
}
