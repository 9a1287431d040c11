import * as wire from '@keel/protocol/workbench';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams, noContent, requirePrivileged, responses } from '../http/index.ts';
import type { KnowledgeService } from './knowledge-service.ts';
import { projectProgramChanges } from './program-changes.ts';
import type { ProjectService } from './project-service.ts';
import { projectCreateSchema, projectInitSchema, projectUpdateSchema } from './types.ts';

/**
 * Projects CRUD, `POST /api/projects/{id}/init`, `GET /api/projects/{id}/knowledge` and
 * `GET /api/projects/{id}/repository-config`.
 */
export function projectRoutes(projects: ProjectService, knowledge: KnowledgeService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['projects'];
    app.get(
      '/api/projects',
      {
        schema: {
          tags,
          operationId: 'listProjects',
          summary: 'The projects',
          response: responses(wire.projectList),
        },
      },
      async () => ({ projects: await projects.list() }),
    );
    app.post(
      '/api/projects',
      {
        schema: {
          tags,
          operationId: 'createProject',
          summary: 'Create a project and start its knowledge generation (201)',
          successStatus: 201,
          description:
            'Creates a project and starts its knowledge generation (status INITIALIZING; when it cannot start, CREATED with the reason in error). A path that is not a git repository is 422 NOT_A_GIT_REPOSITORY.',
          body: projectCreateSchema,
          response: responses(wire.project, 400, 422),
        },
      },
      async (request, reply) => {
        const project = await projects.create(request.body);
        // Knowledge generation starts by itself (POST /api/projects/{id}/init retries it by hand).
        await knowledge.startAutomatically(project.id);
        return reply.status(201).send(await projects.get(project.id));
      },
    );
    app.get(
      '/api/projects/:id',
      {
        schema: {
          tags,
          operationId: 'getProject',
          summary: 'Read a project',
          params: idParams,
          response: responses(wire.project, 404),
        },
      },
      (request) => projects.get(request.params.id),
    );
    app.put(
      '/api/projects/:id',
      {
        schema: {
          tags,
          operationId: 'updateProject',
          summary: "Change a project's fields",
          description:
            "Changes the fields given. New repositories reset the knowledge and generate it again. trust_repository_config: whether the repositories' .runtime/config.json apply their security-relevant keys in this project's Keel runs. setup: each named repository's install command (null: none); run_setup: whether task initialisation runs them (their install scripts run with the network on, as if the user ran the install by hand). preview: each named repository's run/dev command (null: none), started from a task with POST /api/tasks/{id}/previews. A new check, setup or preview command, or turning trust_repository_config or run_setup on, is 403 PERMISSION_DENIED from another origin than the workbench's own, unless the request carries the API key.",
          params: idParams,
          body: projectUpdateSchema,
          response: responses(wire.project, 400, 403, 404, 409, 422),
        },
      },
      async (request) => {
        // A new check or setup command, trust in the repositories' config or run_setup chooses what runs: not from
        // another origin.
        const current = await projects.get(request.params.id);
        requirePrivileged(request, projectProgramChanges(current, request.body));
        const project = await projects.update(request.params.id, request.body);
        // New repositories: their knowledge is generated again by itself.
        if (request.body.repositories !== undefined) await knowledge.startAutomatically(project.id);
        return await projects.get(project.id);
      },
    );
    app.delete(
      '/api/projects/:id',
      {
        schema: {
          tags,
          operationId: 'deleteProject',
          summary: "Delete a project, its tasks' work stopped first (204)",
          successStatus: 204,
          params: idParams,
          response: responses(noContent, 404, 409),
        },
      },
      async (request, reply) => {
        await projects.remove(request.params.id);
        return reply.status(204).send(null);
      },
    );
    app.post(
      '/api/projects/:id/init',
      {
        schema: {
          tags,
          operationId: 'initProject',
          summary: "Generate the project's knowledge again, or retry one layer (202)",
          successStatus: 202,
          description:
            'Generates the four knowledge layers of every repository concurrently (202), or retries one layer with {repository, layer}.',
          params: idParams,
          body: projectInitSchema.nullish(),
          response: responses(wire.projectInitStarted, 400, 404, 409),
        },
      },
      async (request, reply) => {
        const body = request.body ?? {};
        const only =
          body.repository && body.layer ? { repository: body.repository, layer: body.layer } : undefined;
        const records = await knowledge.start(request.params.id, only);
        return reply.status(202).send({ project: await projects.get(request.params.id), knowledge: records });
      },
    );
    app.get(
      '/api/projects/:id/knowledge',
      {
        schema: {
          tags,
          operationId: 'getProjectKnowledge',
          summary: "The project's knowledge: every layer, project.md and constitution.md",
          description:
            'Every layer with status, error, session_id and content; project_md and constitution_md.',
          params: idParams,
          response: responses(wire.knowledge, 404),
        },
      },
      async (request) => knowledge.read(request.params.id),
    );
    app.get(
      '/api/projects/:id/repository-config',
      {
        schema: {
          tags,
          operationId: 'getProjectRepositoryConfig',
          summary: "What the repositories' .runtime/config.json ask for that applies only when trusted",
          description:
            "For each repository, what its .runtime/config.json asks for that applies only when trusted (file, key, value with secrets masked, kind, why), and whether the project's Keel runs trust it now.",
          params: idParams,
          response: responses(wire.projectRepositoryConfig, 404),
        },
      },
      (request) => projects.repositoryConfig(request.params.id),
    );
  };
}
