import { resolve } from 'node:path';
import { directory } from '@keel/protocol/runtime';
import { DirectoryListingError, listDirectory, responses } from '@keel/service';
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
          operationId: 'listDirectory',
          summary: 'List a directory: {path, parent, entries: [{name, is_dir}]}',
          querystring: query,
          response: responses(directory, 400, 403, 404),
        },
      },
      async (request, reply) => {
        const home = options.home();
        const asked = request.query.path || home;
        const path = resolve(home, asked === '~' ? home : asked.replace(/^~\//, `${home}/`));
        try {
          // The spec's answer has no pages: the whole directory, without the workbench's `.git` marks.
          return await listDirectory(path, { hidden: request.query.hidden === 'true', limit: Infinity });
        } catch (error) {
          if (!(error instanceof DirectoryListingError)) throw error;
          return refuse(reply, error);
        }
      },
    );
  };
}

function refuse(reply: FastifyReply, error: DirectoryListingError): FastifyReply {
  const { path } = error;
  if (error.reason === 'failed') {
    // Not the user's mistake (EIO, EMFILE, …): a server error, logged by the server's handler.
    throw new Error(`Could not read ${path}: ${error.fsCode ?? error.message}`);
  }
  if (error.reason === 'forbidden') {
    return reply.status(403).send(
      errorBody({
        code: 'PERMISSION_DENIED',
        message: `The server may not read ${path}.`,
        details: { path },
      }),
    );
  }
  const notDirectory = error.reason === 'not_a_directory' || error.fsCode === 'ENOTDIR';
  return reply.status(404).send(
    errorBody({
      code: 'INVALID_PARAMS',
      message: notDirectory ? `${path} is not a directory.` : `No directory at ${path}.`,
      details: { path, reason: error.fsCode ?? 'ENOENT' },
    }),
  );
}
