import { readdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { directory } from '@keel/protocol/runtime';
import { responses } from '@keel/service';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../errors.ts';

const query = z.object({
  path: z
    .string()
    .max(4096)
    .refine((value) => !value.includes('\0'), 'must not contain NUL characters')
    .optional()
    .describe("the directory to list (default the user's home; `~/…` and relative paths start there)"),
  hidden: z
    .enum(['true', 'false'])
    .default('false')
    .describe('also list entries whose name starts with a dot'),
});

export interface DirectoryRouteOptions {
  /** The user's home directory: the default, and where relative paths start. */
  home: () => string;
}

/**
 * `GET /api/directories` (spec section 4, "Web API"): one directory of the server's machine, to pick a
 * project's directory from a browser. Directories first, then files, each by name. A missing directory
 * (or a path that is not one) is 404 INVALID_PARAMS, an unreadable one 403 PERMISSION_DENIED.
 */
export function directoryRoutes(options: DirectoryRouteOptions): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/directories',
      {
        schema: {
          tags: ['projects'],
          summary: 'List a directory: {path, parent, entries: [{name, is_dir}]}',
          querystring: query,
          response: responses(directory, 400, 403, 404),
        },
      },
      async (request, reply) => {
        const home = options.home();
        const asked = request.query.path || home;
        const path = resolve(home, asked === '~' ? home : asked.replace(/^~\//, `${home}/`));
        const info = await stat(path).catch((error: NodeJS.ErrnoException) => error);
        if (info instanceof Error || !info.isDirectory()) {
          const code = info instanceof Error ? info.code : 'ENOTDIR';
          return refuse(reply, code, path);
        }
        const dirents = await readdir(path, { withFileTypes: true }).catch(
          (error: NodeJS.ErrnoException) => error,
        );
        if (dirents instanceof Error) return refuse(reply, dirents.code, path);
        const shown = dirents.filter(
          (dirent) => request.query.hidden === 'true' || !dirent.name.startsWith('.'),
        );
        const entries = await Promise.all(
          shown.map(async (dirent) => ({
            name: dirent.name,
            // A link to a directory counts as one: a linked checkout can be picked.
            is_dir:
              dirent.isDirectory() ||
              (dirent.isSymbolicLink() &&
                ((await stat(join(path, dirent.name)).catch(() => undefined))?.isDirectory() ?? false)),
          })),
        );
        entries.sort((a, b) => Number(b.is_dir) - Number(a.is_dir) || a.name.localeCompare(b.name));
        const parent = dirname(path);
        return { path, parent: parent === path ? null : parent, entries };
      },
    );
  };
}

/** What means "no such directory" to the user. */
const missing = new Set(['ENOENT', 'ENOTDIR', 'ENAMETOOLONG', 'ELOOP']);

function refuse(reply: FastifyReply, code: string | undefined, path: string): FastifyReply {
  if (code !== undefined && !missing.has(code) && code !== 'EACCES' && code !== 'EPERM') {
    // Not the user's mistake (EIO, EMFILE, …): a server error, logged by the server's handler.
    throw new Error(`Could not read ${path}: ${code}`);
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return reply.status(403).send(
      errorBody({
        code: 'PERMISSION_DENIED',
        message: `The server may not read ${path}.`,
        details: { path },
      }),
    );
  }
  return reply.status(404).send(
    errorBody({
      code: 'INVALID_PARAMS',
      message: code === 'ENOTDIR' ? `${path} is not a directory.` : `No directory at ${path}.`,
      details: { path, reason: code ?? 'ENOENT' },
    }),
  );
}
