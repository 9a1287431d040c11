import {
  checkpointList,
  forkBody,
  artifactList as protocolArtifactList,
  runDetail,
  runInputBody,
  runMetrics,
  runPage,
  run as runSchema,
  startRunBody,
  timeline,
  userInput,
} from '@keel/protocol/runtime';
import { type Run, type Runtime, runStatuses } from '@keel/runtime';
import { responses } from '@keel/service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RuntimePool } from '../runtime-pool.ts';

const runParams = z.object({ id: z.string().min(1) });
const listQuery = z.object({
  status: z.enum(runStatuses).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  /** The `next_cursor` of the previous page. */
  cursor: z.string().min(1).optional(),
  /** Picks the store, as `keel -w` does; default: the server's workdir. */
  workdir: z.string().min(1).optional(),
});

/** A run as the API shows it: the stored record, with `run_id` beside `id` for clients that expect it. */
export function runBody(run: Run): Run & { run_id: string } {
  return { ...run, run_id: run.id };
}

/**
 * A run that a control put back in the queue is continued by this server, as `keel` would in the
 * foreground; a queue-only server's `drive` takes none, so the run waits for a worker.
 */
export function continueQueued(runtime: Runtime, run: Run): void {
  if (run.status === 'queued') void runtime.drive(run.id).catch(() => undefined);
}

/** The canonical runtime API's runs (spec section 4): start, list, detail, timeline, metrics, controls. */
export function runtimeRunRoutes(pool: RuntimePool): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['runs'];
    app.post(
      '/runtime/runs',
      {
        schema: {
          tags,
          operationId: 'startRun',
          summary:
            'Start a run (202): this server executes it (queue only: a worker does); its progress is read from its detail',
          successStatus: 202,
          body: startRunBody,
          response: responses(runSchema, 400),
        },
      },
      async (request, reply) => {
        const { workflow, ...runRequest } = request.body;
        const runtime = pool.for(runRequest.workdir);
        const run = await runtime.start(
          runRequest as Parameters<Runtime['start']>[0],
          workflow === undefined ? {} : { workflow: workflow as never },
        );
        return reply.status(202).send(runBody(run));
      },
    );

    app.get(
      '/runtime/runs',
      {
        schema: {
          tags,
          operationId: 'listRuns',
          summary: 'A page of runs, newest first: {runs, next_cursor}',
          querystring: listQuery,
          response: responses(runPage, 400),
        },
      },
      async (request) => {
        const { status, limit, cursor, workdir } = request.query;
        const runtime = pool.for(workdir);
        const page = await runtime.runs.list({
          limit: limit + 1,
          ...(status ? { status: status as Run['status'] } : {}),
          ...(cursor ? { before: cursor } : {}),
        });
        const runs = page.slice(0, limit);
        return {
          runs: runs.map(runBody),
          next_cursor: page.length > limit ? (runs.at(-1)?.id ?? null) : null,
        };
      },
    );

    app.get(
      '/runtime/runs/:id',
      {
        schema: {
          tags,
          operationId: 'getRun',
          summary: 'A run with its steps, and whether it is orphaned',
          params: runParams,
          response: responses(runDetail, 404),
        },
      },
      async (request) =>
        pool.find(async (runtime) => {
          const run = await runtime.runs.get(request.params.id);
          return {
            ...runBody(run),
            orphaned: runtime.runs.isOrphaned(run),
            steps: await runtime.runs.steps(run.id),
          };
        }),
    );

    app.get(
      '/runtime/runs/:id/timeline',
      {
        schema: {
          tags,
          operationId: 'getRunTimeline',
          summary: "A run's timeline, with its checkpoints and artifacts",
          params: runParams,
          response: responses(timeline, 404),
        },
      },
      async (request) => pool.find((runtime) => runtime.runs.timeline(request.params.id)),
    );

    app.get(
      '/runtime/runs/:id/metrics',
      {
        schema: {
          tags,
          operationId: 'getRunMetrics',
          summary: "A run's duration, usage, retries, tools, gates and artifacts",
          params: runParams,
          response: responses(runMetrics, 404),
        },
      },
      async (request) => pool.find((runtime) => runtime.runs.metrics(request.params.id)),
    );

    app.get(
      '/runtime/runs/:id/checkpoints',
      {
        schema: {
          tags,
          operationId: 'listRunCheckpoints',
          summary: "A run's checkpoints, each a place to fork from",
          params: runParams,
          response: responses(checkpointList, 404),
        },
      },
      async (request) => ({
        checkpoints: await pool.find((runtime) => runtime.runs.checkpoints(request.params.id)),
      }),
    );

    app.get(
      '/runtime/runs/:id/artifacts',
      {
        schema: {
          tags,
          operationId: 'listRunArtifacts',
          summary: 'The artifacts a run produced',
          params: runParams,
          response: responses(protocolArtifactList, 404),
        },
      },
      async (request) => ({
        artifacts: await pool.find((runtime) => runtime.runs.artifacts(request.params.id)),
      }),
    );

    const controls = {
      pause: {
        summary: 'Ask a running run to pause at its next safe boundary',
        control: (runtime: Runtime, id: string) => runtime.pauseRun(id),
      },
      cancel: {
        summary: 'Cancel a run, from any process',
        control: (runtime: Runtime, id: string) => runtime.cancelRun(id),
      },
      resume: {
        summary: 'Resume a waiting or paused run',
        control: (runtime: Runtime, id: string) => runtime.resumeRun(id),
      },
      retry: {
        summary: 'Retry a failed or cancelled run',
        control: (runtime: Runtime, id: string) => runtime.retryRun(id),
      },
      recover: {
        summary: 'Recover a run left running by a process that ended',
        control: (runtime: Runtime, id: string) => runtime.recoverRun(id),
      },
    };
    for (const [name, { summary, control }] of Object.entries(controls)) {
      app.post(
        `/runtime/runs/:id/${name}`,
        {
          schema: {
            tags,
            operationId: `${name}Run`,
            summary,
            params: runParams,
            response: responses(runSchema, 404, 409),
          },
        },
        async (request) =>
          pool.find(async (runtime) => {
            const run = await control(runtime, request.params.id);
            continueQueued(runtime, run);
            return runBody(run);
          }),
      );
    }

    app.post(
      '/runtime/runs/:id/input',
      {
        schema: {
          tags,
          operationId: 'sendRunInput',
          summary: 'A message into a running run, as the user would type it (202, the stored message)',
          successStatus: 202,
          params: runParams,
          body: runInputBody,
          response: responses(userInput, 400, 404, 409),
        },
      },
      async (request, reply) => {
        const input = await pool.find((runtime) =>
          runtime.sendInput(request.params.id, request.body.content),
        );
        return reply.status(202).send(input);
      },
    );

    app.post(
      '/runtime/forks',
      {
        schema: {
          tags,
          operationId: 'forkRun',
          summary: 'Start a new run from a checkpoint (202, the new run)',
          successStatus: 202,
          body: forkBody,
          response: responses(runSchema, 400, 404),
        },
      },
      async (request, reply) => {
        const run = await pool.find(async (runtime) => {
          const fork = await runtime.forkRun(request.body.checkpoint_id);
          continueQueued(runtime, fork);
          return fork;
        });
        return reply.status(202).send(runBody(run));
      },
    );
  };
}
