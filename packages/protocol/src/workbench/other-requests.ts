import { z } from 'zod';

// The bodies and queries of the conversation and session routes, as the service validates them.

export const conversationCreateBody = z.strictObject({
  title: z.string().trim().min(1).max(200),
  project_id: z.string().min(1).nullable().optional(),
});
export const conversationUpdateBody = z.strictObject({ title: z.string().trim().min(1).max(200).optional() });
export const conversationListQuery = z.object({ project_id: z.string().min(1).optional() });

/** `POST /api/sessions/{id}/messages` (and the WebSocket's `chat`): a turn now, or queued. */
export const sessionMessageBody = z.strictObject({ content: z.string().trim().min(1).max(200_000) });
/** `GET /api/sessions/{id}/logs`: entries with seq above `after`, at most `limit`. */
export const logsQuery = z.object({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});

export type ConversationCreate = z.input<typeof conversationCreateBody>;
export type ConversationUpdate = z.input<typeof conversationUpdateBody>;
export type SessionMessage = z.input<typeof sessionMessageBody>;
/** What a client sends (query values are text on the wire; the service reads them as numbers). */
export type LogQuery = Partial<z.output<typeof logsQuery>>;
