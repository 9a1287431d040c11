import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { responses } from '../http/index.ts';
import { listDirectory } from './list-directory.ts';

const query = z.object({
  path: z.string().min(1).max(4096).optional(),
  hidden: z.enum(['true', 'false']).optional(),
});

/** `GET /api/directories`: browse the machine's directories to pick a project's repositories. */
export function directoryRoutes(): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/directories',
      {
        schema: {
          tags: ['projects'],
          querystring: query,
          response: responses(
            '{path, parent, entries: [{name, path, is_dir, is_git_repo}]}: directories first; default the home directory.',
            400,
            403,
            404,
          ),
        },
      },
      (request) => listDirectory(request.query.path, { hidden: request.query.hidden === 'true' }),
    );
  };
}
