import * as wire from '@keel/protocol/workbench';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams, noContent, responses } from '../http/index.ts';
import type { ConversationService } from './conversation-service.ts';

const { conversationCreateBody: createBody, conversationUpdateBody: updateBody } = wire;
const listQuery = wire.conversationListQuery;

/** Conversations CRUD on `/api/conversations` and `POST /api/conversations/{id}/init`. */
export function conversationRoutes(conversations: ConversationService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['conversations'];
    app.get(
      '/api/conversations',
      {
        schema: {
          tags,
          operationId: 'listConversations',
          summary: 'The conversations, of one project with `project_id`',
          querystring: listQuery,
          response: responses(wire.conversationList, 400),
        },
      },
      async (request) => ({ conversations: await conversations.list(request.query.project_id) }),
    );
    app.post(
      '/api/conversations',
      {
        schema: {
          tags,
          operationId: 'createConversation',
          summary: 'Create a conversation (201)',
          successStatus: 201,
          body: createBody,
          response: responses(wire.conversation, 400, 404),
        },
      },
      async (request, reply) => reply.status(201).send(await conversations.create(request.body)),
    );
    app.get(
      '/api/conversations/:id',
      {
        schema: {
          tags,
          operationId: 'getConversation',
          summary: 'Read a conversation',
          params: idParams,
          response: responses(wire.conversation, 404),
        },
      },
      async (request) => conversations.get(request.params.id),
    );
    app.put(
      '/api/conversations/:id',
      {
        schema: {
          tags,
          operationId: 'updateConversation',
          summary: 'Rename a conversation',
          params: idParams,
          body: updateBody,
          response: responses(wire.conversation, 400, 404),
        },
      },
      async (request) => conversations.update(request.params.id, request.body),
    );
    app.delete(
      '/api/conversations/:id',
      {
        schema: {
          tags,
          operationId: 'deleteConversation',
          summary: 'Delete a conversation (204)',
          successStatus: 204,
          params: idParams,
          response: responses(noContent, 404),
        },
      },
      async (request, reply) => {
        await conversations.remove(request.params.id);
        return reply.status(204).send(null);
      },
    );
    app.post(
      '/api/conversations/:id/init',
      {
        schema: {
          tags,
          operationId: 'initConversation',
          summary: "Open the conversation's session with the project's knowledge (201)",
          successStatus: 201,
          description:
            "Opens the conversation's session with the project's knowledge as context; then chat over WS /api/ws.",
          params: idParams,
          response: responses(wire.conversationStarted, 404, 409),
        },
      },
      async (request, reply) => reply.status(201).send(await conversations.init(request.params.id)),
    );
  };
}
