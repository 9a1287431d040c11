import {
  approval,
  approvalAnswerBody,
  approvalDecided,
  approvalDecisionBody,
  approvalList,
  approvalStatuses,
  artifactWithContent,
  auditPage,
  errorBody,
} from '@keel/protocol/runtime';
import { responses } from '@keel/service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RuntimePool } from '../runtime-pool.ts';
import { continueQueued, runBody } from './runtime-runs.ts';

const idParams = z.object({ id: z.string().min(1) });
// A decision may come with no body at all (fastify then sees null).
const decisionBody = approvalDecisionBody.nullish().transform((body) => body ?? {});

/** The canonical runtime API's approvals, artifacts and audit log (spec section 4). */
export function runtimeRecordRoutes(pool: RuntimePool): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/runtime/approvals',
      {
        schema: {
          tags: ['approvals'],
          operationId: 'listApprovals',
          summary: 'Approvals, by run and status',
          querystring: z.object({
            run_id: z.string().min(1).optional(),
            status: z.enum(approvalStatuses).optional(),
            limit: z.coerce.number().int().min(1).max(500).default(50),
            workdir: z.string().min(1).optional(),
          }),
          response: responses(approvalList, 400),
        },
      },
      async (request) => {
        const { workdir, ...query } = request.query;
        return { approvals: await pool.for(workdir).approvals.list(query) };
      },
    );

    app.get(
      '/runtime/approvals/:id',
      {
        schema: {
          tags: ['approvals'],
          operationId: 'getApproval',
          summary: 'An approval',
          params: idParams,
          response: responses(approval, 404),
        },
      },
      async (request) => pool.find((runtime) => runtime.approvals.get(request.params.id)),
    );

    const decisions = {
      approve: 'Approve a pending approval: the run goes on with the call',
      reject: 'Reject a pending approval: the run goes on without the call',
    };
    for (const decision of ['approve', 'reject'] as const) {
      app.post(
        `/runtime/approvals/:id/${decision}`,
        {
          schema: {
            tags: ['approvals'],
            operationId: `${decision}Approval`,
            summary: decisions[decision],
            params: idParams,
            body: decisionBody,
            response: responses(approvalDecided, 400, 404, 409),
          },
        },
        async (request) =>
          pool.find(async (runtime) => {
            const { approval, run } = await runtime.approvals[decision](
              request.params.id,
              clean(request.body),
            );
            continueQueued(runtime, run);
            return { approval, run: runBody(run) };
          }),
      );
    }

    app.post(
      '/runtime/approvals/:id/answer',
      {
        schema: {
          tags: ['approvals'],
          operationId: 'answerApproval',
          summary: "Answer a run's pending question",
          params: idParams,
          body: approvalAnswerBody,
          response: responses(approvalDecided, 400, 404, 409),
        },
      },
      async (request) =>
        pool.find(async (runtime) => {
          const { answer, by } = request.body;
          const { approval, run } = await runtime.approvals.answer(
            request.params.id,
            answer,
            by ? { by } : {},
          );
          continueQueued(runtime, run);
          return { approval, run: runBody(run) };
        }),
    );

    app.get(
      '/runtime/artifacts/:id',
      {
        schema: {
          tags: ['artifacts'],
          operationId: 'getArtifact',
          summary: "An artifact's record, with the URL of its content",
          params: idParams,
          response: responses(artifactWithContent, 404),
        },
      },
      async (request) => {
        const artifact = await pool.find((runtime) => runtime.artifacts.get(request.params.id));
        return { ...artifact, content_url: `/runtime/artifacts/${artifact.id}/content` };
      },
    );

    // The payload as it was stored, with its own media type: not JSON, so past any serializer.
    app.get(
      '/runtime/artifacts/:id/content',
      {
        schema: {
          tags: ['artifacts'],
          operationId: 'getArtifactContent',
          summary: "An artifact's payload as stored, with its media type",
          params: idParams,
          response: {
            200: {
              description: "The artifact's payload, with its media type",
              content: { '*/*': { schema: z.string().describe('the payload, as stored') } },
            },
            404: errorBody,
          },
        },
      },
      async (request, reply) => {
        const { artifact, payload } = await pool.find(async (runtime) => ({
          artifact: await runtime.artifacts.get(request.params.id),
          payload: await runtime.artifacts.read(request.params.id),
        }));
        // Fastify sends a Buffer as it is (no serializer runs); the schema above only documents it.
        return reply.type(artifact.media_type).send(Buffer.from(payload) as unknown as string);
      },
    );

    // `GET /audit` is the spec's audit endpoint; `/runtime/audit` the canonical API's name for it.
    const audits = {
      '/runtime/audit': {
        operationId: 'listRuntimeAudit',
        summary: 'Audit entries by event, run and time: {entries, total}',
      },
      '/audit': { operationId: 'listAudit', summary: "The same as GET /runtime/audit, at the spec's path" },
    };
    for (const [path, names] of Object.entries(audits)) {
      app.get(
        path,
        {
          schema: {
            tags: ['audit'],
            ...names,
            querystring: z.object({
              event: z.string().min(1).optional(),
              run_id: z.string().min(1).optional(),
              since: z.iso.datetime({ offset: true }).optional(),
              limit: z.coerce.number().int().min(1).max(1000).default(50),
              workdir: z.string().min(1).optional(),
            }),
            response: responses(auditPage, 400),
          },
        },
        async (request) => {
          const { workdir, ...query } = request.query;
          return pool.for(workdir).audit.list(query);
        },
      );
    }
  };
}

/** Drops unset fields, for options typed with exactOptionalPropertyTypes in mind. */
function clean<T extends Record<string, unknown>>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as never;
}
