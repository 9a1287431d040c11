import * as wire from '@keel/protocol/workbench';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { responses } from '../http/index.ts';
import { listDirectory } from './list-directory.ts';

const query = z.object({
  // A NUL byte can name no file: refused as bad input rather than failing inside the file system call.
  path: z
    .string()
    .min(1)
    .max(4096)
    .refine((path) => !path.includes('\0'), 'must not contain a NUL byte')
    .optional(),
  hidden: z.enum(['true', 'false']).optional(),
  /** Where the page starts in the sorted entries (pages of 2,000). */
  offset: z.coerce.number().int().min(0).max(10_000_000).optional(),
});

/** `GET /api/directories`: browse the machine's directories to pick a project's repositories. */
export function directoryRoutes(): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/directories',
      {
        schema: {
          tags: ['projects'],
          operationId: 'listDirectory',
          summary: "List a directory of this machine, to pick a project's repositories",
          querystring: query,
          response: responses(wire.directoryListing, 400, 403, 404),
        },
      },
      (request) =>
        listDirectory(request.query.path, {
          hidden: request.query.hidden === 'true',
          ...(request.query.offset === undefined ? {} : { offset: request.query.offset }),
        }),
    );
  };
}
