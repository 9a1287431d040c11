import * as wire from '@keel/protocol/workbench';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams, responses, sendJsonText } from '../http/index.ts';
import type { SessionLog } from './session-log.ts';
import type { SessionRunner } from './session-runner.ts';
import type { Sessions } from './sessions.ts';

const messageBody = wire.sessionMessageBody;
const queueParams = z.object({ id: z.string().min(1).max(200), message_id: z.string().min(1).max(200) });

const logsQuery = wire.logsQuery;

/**
 * `GET /api/sessions/{id}/status` (the row), `GET /api/sessions/{id}/logs?after=&limit=` (a page) and
 * `POST /api/sessions/{id}/stop`.
 */
export function sessionRoutes(
  store: Sessions,
  log: SessionLog,
  runner: SessionRunner,
): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['sessions'];
    app.post(
      '/api/sessions/:id/stop',
      {
        schema: {
          tags,
          operationId: 'stopSession',
          summary: "Stop the session's running work",
          description:
            "Stops the session's running work (its turn, or the work before it) and answers once it ended: a todo is then failed (execute it again to retry), a plan keeps its last version. 409 SESSION_NOT_RUNNING when nothing runs.",
          params: idParams,
          response: responses(wire.session, 404, 409),
        },
      },
      async (request) => runner.stop(request.params.id),
    );
    app.post(
      '/api/sessions/:id/messages',
      {
        schema: {
          tags,
          operationId: 'sendSessionMessage',
          summary: 'A chat message into the session: a turn now, or queued (202)',
          successStatus: 202,
          description:
            "A chat message into the session, as the WebSocket `chat`: a follow-up turn now when the session is idle ({queued: false}), else queued and delivered as its next turn once the current work ends ({queued: true, position}). On a plan or review session the answer is that stage's answer.",
          params: idParams,
          body: messageBody,
          response: responses(wire.sentMessage, 400, 404, 409),
        },
      },
      async (request, reply) =>
        reply.status(202).send(await runner.send(request.params.id, request.body.content)),
    );
    app.get(
      '/api/sessions/:id/queue',
      {
        schema: {
          tags,
          operationId: 'getSessionQueue',
          summary: 'The chat messages queued for the session, next first',
          description:
            "The chat messages waiting for the session's current work to end, next first (kept in memory: a restart loses them).",
          params: idParams,
          response: responses(wire.sessionQueue, 404),
        },
      },
      async (request) => ({ session_id: request.params.id, messages: await runner.queue(request.params.id) }),
    );
    app.delete(
      '/api/sessions/:id/queue/:message_id',
      {
        schema: {
          tags,
          operationId: 'unqueueSessionMessage',
          summary: 'Take a queued message out before it is delivered',
          description: 'Takes a queued message out before it is delivered; it never runs.',
          params: queueParams,
          response: responses(wire.sessionQueue, 404),
        },
      },
      async (request) => ({
        session_id: request.params.id,
        messages: await runner.unqueue(request.params.id, request.params.message_id),
      }),
    );
    app.get(
      '/api/sessions/:id/status',
      {
        schema: {
          tags,
          operationId: 'getSessionStatus',
          summary: "The session's row, with whether it is busy",
          params: idParams,
          response: responses(wire.session, 404),
        },
      },
      (request) => store.get(request.params.id),
    );
    app.get(
      '/api/sessions/:id/logs',
      {
        schema: {
          tags,
          operationId: 'getSessionLogs',
          summary: "A page of the session's log",
          description:
            'Log entries {seq, timestamp, event} with seq > after, at most limit; next_cursor is the `after` of the next page.',
          params: idParams,
          querystring: logsQuery,
          response: responses(wire.logPage, 400, 404),
        },
      },
      async (request, reply) => {
        const session = await store.get(request.params.id);
        const { after, limit } = request.query;
        // The stored lines are the entries' JSON: wrapped as they are, as the WebSocket sends them, not
        // parsed and serialised again (the answer's shape is still `logPage`; the tests check each page).
        const lines = await log.readLines(session.id, after, limit);
        const next = after + lines.length;
        const hasMore = (await log.lastSeq(session.id)) > next;
        const page = `{"session_id":${JSON.stringify(session.id)},"entries":[${lines.join(',')}],"next_cursor":${next},"has_more":${hasMore}}`;
        return sendJsonText(reply, page);
      },
    );
  };
}
