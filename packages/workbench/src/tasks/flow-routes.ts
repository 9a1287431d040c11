import * as wire from '@keel/protocol/workbench';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { responses } from '../http/index.ts';
import type { TaskDeps } from './deps.ts';

/**
 * `GET /api/flow`, and every registered stage's endpoints in registry order: Work that takes time answers
 * 202 at once; its sessions show the progress.
 */
export function flowRoutes(deps: TaskDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const { flow } = deps;
    app.get(
      '/api/flow',
      {
        schema: {
          tags: ['flow'],
          operationId: 'getFlow',
          summary: 'The flow as data: stages, states and the table of moves',
          description:
            'The flow as data: the stages with their states, every task state, and the table of moves (action, by, from, to, trigger). Clients draw their stepper from it.',
          response: responses(wire.flow),
        },
      },
      async () => ({
        stages: flow.stages.map((stage) => ({ ...stage, states: [...stage.states] })),
        states: [...flow.states],
        moves: flow.moves.map((move) => ({ ...move, from: [...move.from] })),
      }),
    );
    for (const stage of flow.modules) {
      if (stage.routes) await app.register(stage.routes(deps));
    }
  };
}
