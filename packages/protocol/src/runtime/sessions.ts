import { z } from 'zod';
import { timestamp } from './common.ts';
import { messageRoles } from './names.ts';

// Sessions (`/sessions`): the conversations a run request's `session_id` continues.

/** A session; its timestamps are UTC without the offset, as the spec shows them. */
export const session = z.object({
  id: z.string(),
  title: z.string(),
  model: z.string(),
  workdir: z.string(),
  message_count: z.number().int(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Session = z.infer<typeof session>;

/** An image attachment (the spec's ImagePayload): base64 data without a `data:` prefix. */
export const imagePayload = z.object({
  data: z.string(),
  media_type: z.string(),
  filename: z.string().optional(),
});
export type ImagePayload = z.infer<typeof imagePayload>;

export const sessionMessage = z.object({
  role: z.enum(messageRoles),
  content: z.string(),
  timestamp,
  images: z.array(imagePayload).nullable(),
});
export type SessionMessage = z.infer<typeof sessionMessage>;

/** `GET /sessions/{id}`: the session with its messages. */
export const sessionDetail = session.extend({ messages: z.array(sessionMessage) });
export type SessionDetail = z.infer<typeof sessionDetail>;

/** `GET /sessions`: most recent first. */
export const sessionList = z.object({ sessions: z.array(session) });
export type SessionList = z.infer<typeof sessionList>;
