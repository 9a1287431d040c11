import * as wire from '@keel/protocol/workbench';
import { skillNameProblem } from '@keel/runtime';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams, noContent, responses } from '../http/index.ts';
import type { SkillService } from './skill-service.ts';

// The runtime's rule, since a linked skill is loaded by the runtime: a name it refuses would never load.
const nameSchema = z
  .string()
  .refine(
    (name) => skillNameProblem(name) === null,
    'must be lowercase letters and hyphens, at most 64 characters',
  );
const createBody = wire.skillCreateBody.extend({ name: nameSchema });
// Named in the OpenAPI document as the protocol's body would be.
wire.workbenchComponents.add(createBody, { id: 'SkillCreate' });
const { skillUpdateBody: updateBody, skillLinkBody: linkBody, skillListQuery: listQuery } = wire;

/** Skills CRUD on `/api/skills` and `POST /api/skills/{id}/link`. */
export function skillRoutes(skills: SkillService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['skills'];
    app.get(
      '/api/skills',
      {
        schema: {
          tags,
          operationId: 'listSkills',
          summary: 'The skills, those linked to a project with `project_id`',
          querystring: listQuery,
          response: responses(wire.skillList, 400),
        },
      },
      async (request) => ({ skills: await skills.list(request.query.project_id) }),
    );
    app.post(
      '/api/skills',
      {
        schema: {
          tags,
          operationId: 'createSkill',
          summary: 'Create a skill (201)',
          successStatus: 201,
          body: createBody,
          response: responses(wire.skillWithContent, 400, 409),
        },
      },
      async (request, reply) => reply.status(201).send(await skills.create(request.body)),
    );
    app.get(
      '/api/skills/:id',
      {
        schema: {
          tags,
          operationId: 'getSkill',
          summary: 'Read a skill with its content',
          params: idParams,
          response: responses(wire.skillWithContent, 404),
        },
      },
      async (request) => skills.get(request.params.id),
    );
    app.put(
      '/api/skills/:id',
      {
        schema: {
          tags,
          operationId: 'updateSkill',
          summary: "Change a skill's description or content",
          params: idParams,
          body: updateBody,
          response: responses(wire.skillWithContent, 400, 404),
        },
      },
      async (request) => skills.update(request.params.id, request.body),
    );
    app.delete(
      '/api/skills/:id',
      {
        schema: {
          tags,
          operationId: 'deleteSkill',
          summary: 'Delete a skill (204)',
          successStatus: 204,
          params: idParams,
          response: responses(noContent, 404),
        },
      },
      async (request, reply) => {
        await skills.remove(request.params.id);
        return reply.status(204).send(null);
      },
    );
    app.post(
      '/api/skills/:id/link',
      {
        schema: {
          tags,
          operationId: 'linkSkill',
          summary: 'Link the skill to a project, or unlink it',
          description:
            'Links the skill to a project (linked: true) or unlinks it; tasks of the project get it in .skills/.',
          params: idParams,
          body: linkBody,
          response: responses(wire.skillWithContent, 400, 404),
        },
      },
      async (request) => skills.link(request.params.id, request.body.project_id, request.body.linked),
    );
  };
}
