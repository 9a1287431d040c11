import { agentKilled, agentSpawned, spawnRequest, subAgent } from '@keel/protocol/runtime';
import { responses } from '@keel/service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RuntimePool } from '../runtime-pool.ts';

// Any id that is not a sub-agent's, well-formed or not, is AGENT_NOT_FOUND (404), as the spec has it.
const agentParams = z.object({ agent_id: z.string().min(1).max(1024) });

/**
 * Sub-agents (spec section 4): `POST /agent/spawn` (`task`; `type` code, research, test or generic;
 * `timeout` in seconds, null for the default 300), `GET /agent/{agent_id}` (the sub-agent record) and
 * `DELETE /agent/{agent_id}` (agent_id, killed, status). Beyond the spec, `POST /agent/{agent_id}/resume`
 * does what the resume_agent tool does. A spawned sub-agent runs in this server's process; its record and
 * its run live in the store, so any surface on the same store reads them.
 */
export function agentRoutes(pool: RuntimePool): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['agents'];
    app.post(
      '/agent/spawn',
      {
        schema: {
          tags,
          operationId: 'spawnAgent',
          summary: 'Spawn a sub-agent',
          body: spawnRequest,
          response: responses(agentSpawned, 400, 429),
        },
      },
      async (request) => {
        const agent = await pool.for(request.body.workdir).agents.spawn(request.body);
        return {
          agent_id: agent.agent_id,
          status: agent.status,
          created_at: agent.created_at,
          run_id: agent.run_id,
        };
      },
    );

    app.get(
      '/agent/:agent_id',
      {
        schema: {
          tags,
          operationId: 'getAgent',
          summary: 'A sub-agent’s record',
          params: agentParams,
          response: responses(subAgent, 404),
        },
      },
      async (request) => pool.find((runtime) => runtime.agents.get(request.params.agent_id)),
    );

    app.delete(
      '/agent/:agent_id',
      {
        schema: {
          tags,
          operationId: 'killAgent',
          summary: 'Kill a pending or running sub-agent',
          params: agentParams,
          response: responses(agentKilled, 404),
        },
      },
      async (request) => pool.find((runtime) => runtime.agents.kill(request.params.agent_id)),
    );

    app.post(
      '/agent/:agent_id/resume',
      {
        schema: {
          tags,
          operationId: 'resumeAgent',
          summary: 'Resume a completed, failed or timed-out sub-agent',
          params: agentParams,
          response: responses(subAgent, 404, 409, 429),
        },
      },
      async (request) => pool.find((runtime) => runtime.agents.resume(request.params.agent_id)),
    );
  };
}
