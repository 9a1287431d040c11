import { z } from 'zod';

// The bodies and queries of the conversation, session and skill routes, as the service validates them.

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

/** `POST /api/skills` (the service also applies the runtime's skill-name rule to `name`). */
export const skillCreateBody = z.strictObject({
  name: z.string(),
  description: z.string().trim().min(1).max(1024),
  content: z.string().max(200_000).default(''),
});
export const skillUpdateBody = z.strictObject({
  description: z.string().trim().min(1).max(1024).optional(),
  content: z.string().max(200_000).optional(),
});
/** `POST /api/skills/{id}/link`: linked to the project, or not. */
export const skillLinkBody = z.strictObject({ project_id: z.string().min(1), linked: z.boolean() });
export const skillListQuery = z.object({ project_id: z.string().min(1).optional() });

export type SkillCreate = z.input<typeof skillCreateBody>;
export type SkillUpdate = z.input<typeof skillUpdateBody>;
export type SkillLink = z.input<typeof skillLinkBody>;
