import {
  errorBody,
  runCallBody,
  runEvent,
  runResult,
  toolCallBody,
  toolCallResult,
} from '@keel/protocol/runtime';
import type { RunRequest, RuntimeEvent } from '@keel/runtime';
import { eventStream, responses } from '@keel/service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RuntimePool } from '../runtime-pool.ts';
import { openEventStream } from '../sse.ts';

// The run request is validated field by field by the runtime (INVALID_PARAMS naming the field): the body
// schema of `POST /run` only reads `stream`.

/**
 * The spec's run endpoints: `POST /run` answers the run result when the run ends (or streams, with
 * `"stream": true`), `POST /run/stream` streams its events as SSE, `POST /tool` runs one tool.
 */
export function runRoutes(pool: RuntimePool, options: { idleMs: number }): FastifyPluginAsyncZod {
  /** The request with the server's workdir as the default, on that workdir's store. */
  const prepare = (body: Record<string, unknown>) => {
    const { stream: _stream, ...fields } = body;
    const request = { workdir: pool.workdir, ...fields } as RunRequest;
    return { request, runtime: pool.for(typeof request.workdir === 'string' ? request.workdir : undefined) };
  };

  return async (app) => {
    const streamRun = async (body: Record<string, unknown>, reply: Parameters<typeof openEventStream>[0]) => {
      const { request, runtime } = prepare(body);
      const cancel = new AbortController();
      const events = runtime.stream(request, { signal: cancel.signal })[Symbol.asyncIterator]();
      // An invalid request or unknown session throws here, before the stream starts: a plain JSON error.
      const first = await events.next();
      const sse = openEventStream(reply, options.idleMs);
      // A client that leaves (or a stream idle too long) cancels the run, as closing a chat does.
      sse.signal.addEventListener('abort', () => cancel.abort(), { once: true });
      try {
        for (let next: IteratorResult<RuntimeEvent> = first; !next.done; next = await events.next()) {
          await sse.send(next.value);
        }
      } finally {
        await events.return?.(undefined);
        sse.end();
      }
    };

    const streamed = eventStream(runEvent, "The run's events: `session_start` first, `done` or `error` last");
    app.post(
      '/run',
      {
        schema: {
          tags: ['run'],
          operationId: 'run',
          summary: 'Run the agent and answer its result when the run ends (`"stream": true`: its events)',
          body: runCallBody,
          response: {
            // The run result when the run ends; with `"stream": true`, its events instead.
            200: {
              description: 'The run result',
              content: { ...streamed.content, 'application/json': { schema: runResult } },
            },
            400: errorBody,
            404: errorBody,
          },
        },
      },
      async (request, reply) => {
        if (request.body.stream === true) return streamRun(request.body, reply);
        const { request: runRequest, runtime } = prepare(request.body);
        return runtime.run(runRequest);
      },
    );

    app.post(
      '/run/stream',
      {
        schema: {
          tags: ['run'],
          operationId: 'runStream',
          summary: 'Run the agent and stream its events as Server-Sent Events (`session_start` first)',
          body: runCallBody,
          response: { 200: streamed, 400: errorBody, 404: errorBody },
        },
      },
      async (request, reply) => streamRun(request.body, reply),
    );

    app.post(
      '/tool',
      {
        schema: {
          tags: ['tools'],
          operationId: 'callTool',
          summary: 'Run one tool with its params in a workdir',
          body: toolCallBody,
          response: responses(toolCallResult, 400, 403, 404),
        },
      },
      async (request) => {
        const { tool, params, workdir } = request.body;
        const result = await pool.for(workdir).callTool(tool, params, workdir ?? pool.workdir);
        return { status: 'success' as const, result };
      },
    );
  };
}
