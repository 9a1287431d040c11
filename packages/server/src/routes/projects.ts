import { resolve } from 'node:path';
import {
  deleted,
  newProject,
  project,
  projectInit,
  projectPage,
  projectUpdate,
} from '@keel/protocol/runtime';
import { KeelError, type Runtime } from '@keel/runtime';
import { invalidFields } from '@keel/runtime/internal';
import { responses } from '@keel/service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answerInvalidFieldsWith422 } from '../errors.ts';
import type { RuntimePool } from '../runtime-pool.ts';
import { runBody } from './runtime-runs.ts';

const projectParams = z.object({ project_id: z.string().min(1) });

/** A page of projects or tasks: newest first, `cursor` is the previous page's `next_cursor`. */
export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().min(1).optional(),
});

/** A page with its `next_cursor` (null on the last page), read one beyond `limit` to know. */
export async function page<T extends { id: string }>(
  limit: number,
  read: (query: { limit: number; before?: string }) => Promise<T[]>,
  cursor: string | undefined,
): Promise<{ items: T[]; next_cursor: string | null }> {
  const found = await read({ limit: limit + 1, ...(cursor ? { before: cursor } : {}) });
  const items = found.slice(0, limit);
  return { items, next_cursor: found.length > limit ? (items.at(-1)?.id ?? null) : null };
}

/**
 * The runtime whose store a new project's records go to: the one its directory's configuration names, as
 * for runs. A directory that does not exist is reported by the runtime's own check (a 422).
 */
function runtimeFor(pool: RuntimePool, workdir: string): Runtime {
  try {
    return pool.for(workdir);
  } catch (error) {
    if (KeelError.is(error) && error.code === 'INVALID_PARAMS') return pool.for();
    throw error;
  }
}

/** The runtime on the store `?workdir=` names (default the server's); a bad one is an invalid field. */
export function storeOf(pool: RuntimePool, workdir: string | undefined): Runtime {
  try {
    return pool.for(workdir);
  } catch (error) {
    if (!(KeelError.is(error) && error.code === 'INVALID_PARAMS')) throw error;
    throw invalidFields([{ field: 'querystring.workdir', message: `${workdir} is not a directory` }]);
  }
}

/**
 * `/api/projects` (spec section 4, "Web API"): create, list, read, update, delete, and init (the project
 * guide, written by an agent run). A missing project is 404 PROJECT_NOT_FOUND, an invalid field 422.
 */
export function projectRoutes(pool: RuntimePool): FastifyPluginAsyncZod {
  return async (app) => {
    answerInvalidFieldsWith422(app);

    app.post(
      '/api/projects',
      {
        schema: {
          tags: ['projects'],
          operationId: 'createProject',
          summary: 'Create a project: its runtime directory and chat session are made with it (201)',
          successStatus: 201,
          body: newProject,
          response: responses(project, 400, 413, 422),
        },
      },
      async (request, reply) => {
        const workdir = resolve(pool.workdir, request.body.workdir);
        const project = await runtimeFor(pool, workdir).projects.create(
          { ...request.body, workdir },
          { cwd: pool.workdir },
        );
        return reply.status(201).send(project);
      },
    );

    app.get(
      '/api/projects',
      {
        schema: {
          tags: ['projects'],
          operationId: 'listProjects',
          summary:
            "List projects, newest first: {projects, next_cursor} (the store of `workdir`, default the server's)",
          querystring: pageQuery.extend({ workdir: z.string().min(1).optional() }),
          response: responses(projectPage, 422),
        },
      },
      async (request) => {
        const { limit, cursor, workdir } = request.query;
        const runtime = storeOf(pool, workdir);
        const { items, next_cursor } = await page(limit, (query) => runtime.projects.list(query), cursor);
        return { projects: items, next_cursor };
      },
    );

    app.get(
      '/api/projects/:project_id',
      {
        schema: {
          tags: ['projects'],
          operationId: 'getProject',
          summary: 'Read a project',
          params: projectParams,
          response: responses(project, 404),
        },
      },
      async (request) => pool.find((runtime) => runtime.projects.get(request.params.project_id)),
    );

    app.put(
      '/api/projects/:project_id',
      {
        schema: {
          tags: ['projects'],
          operationId: 'updateProject',
          summary: 'Update a project: the fields given change, the others stay',
          params: projectParams,
          body: projectUpdate,
          response: responses(project, 400, 404, 413, 422),
        },
      },
      async (request) =>
        pool.find((runtime) =>
          runtime.projects.update(request.params.project_id, request.body, { cwd: pool.workdir }),
        ),
    );

    app.delete(
      '/api/projects/:project_id',
      {
        schema: {
          tags: ['projects'],
          operationId: 'deleteProject',
          summary: "Delete a project and its tasks' records (sessions, runs, files and branches stay)",
          params: projectParams,
          response: responses(deleted, 404),
        },
      },
      async (request) => {
        await pool.find((runtime) => runtime.projects.delete(request.params.project_id));
        return { status: 'deleted' as const, id: request.params.project_id };
      },
    );

    app.post(
      '/api/projects/:project_id/init',
      {
        schema: {
          tags: ['projects'],
          operationId: 'initProject',
          successStatus: 202,
          summary:
            'Analyse the project with the configured model and create or update AGENTS.md: 202, {run_id, guide_path, run}',
          params: projectParams,
          response: responses(projectInit, 400, 404),
        },
      },
      async (request, reply) => {
        const { run, guide_path } = await pool.find((runtime) =>
          runtime.projects.init(request.params.project_id),
        );
        return reply.status(202).send({ run_id: run.id, guide_path, run: runBody(run) });
      },
    );
  };
}
