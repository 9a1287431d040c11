import { resolve } from 'node:path';
import { skill, skillDetail, skillList } from '@keel/protocol/runtime';
import { responses } from '@keel/service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RuntimePool } from '../runtime-pool.ts';

// Any name that is not a loaded skill, well-formed or not, is SKILL_NOT_FOUND (404), as the spec has it.
const nameParams = z.object({ name: z.string().min(1).max(1024) });
const workdirQuery = z.object({
  /** The project whose .runtime/skills and .runtime/config.json count; default the server's workdir. */
  workdir: z.string().min(1).optional(),
});
const changeQuery = workdirQuery.extend({
  /** Which configuration file the change is written to. */
  scope: z.enum(['global', 'project']).default('global'),
});

/**
 * Skills (spec section 4): `GET /skills`, `GET /skills/{name}` with its documentation, and
 * `POST /skills/{name}/enable|disable`, which write the global configuration file (or the project's,
 * with `?scope=project`) and answer the skill as it now is.
 */
export function skillRoutes(pool: RuntimePool): FastifyPluginAsyncZod {
  // The runtime on the workdir's store (which also checks that it is a directory), and the workdir itself.
  const place = (workdir: string | undefined) => ({
    runtime: pool.for(workdir),
    workdir: workdir === undefined ? pool.workdir : resolve(pool.workdir, workdir),
  });
  return async (app) => {
    const tags = ['skills'];
    app.get(
      '/skills',
      {
        schema: {
          tags,
          operationId: 'listSkills',
          summary: 'The skills a run in the workdir gets, and the SKILL.md files skipped',
          querystring: workdirQuery,
          response: responses(skillList, 400),
        },
      },
      async (request) => {
        const { runtime, workdir } = place(request.query.workdir);
        return runtime.skills.list({ workdir });
      },
    );

    app.get(
      '/skills/:name',
      {
        schema: {
          tags,
          operationId: 'getSkill',
          summary: 'A skill with its documentation (its SKILL.md body)',
          params: nameParams,
          querystring: workdirQuery,
          response: responses(skillDetail, 400, 404),
        },
      },
      async (request) => {
        const { runtime, workdir } = place(request.query.workdir);
        return runtime.skills.get(request.params.name, { workdir });
      },
    );

    for (const verb of ['enable', 'disable'] as const) {
      app.post(
        `/skills/:name/${verb}`,
        {
          schema: {
            tags,
            operationId: `${verb}Skill`,
            summary: `${verb === 'enable' ? 'Enable' : 'Disable'} a skill in the global or the project's configuration`,
            params: nameParams,
            querystring: changeQuery,
            response: responses(skill, 400, 404),
          },
        },
        async (request) => {
          const { runtime, workdir } = place(request.query.workdir);
          return runtime.skills[verb](request.params.name, { workdir, scope: request.query.scope });
        },
      );
    }
  };
}
