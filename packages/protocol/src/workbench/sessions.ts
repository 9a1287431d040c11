import { z } from 'zod';
import { errorObject, timestamp, usage } from './common.ts';
import { runnerKinds, sessionKinds, sessionStatuses } from './names.ts';

/** A session as `GET /api/sessions/{id}/status` answers it (its working context stays in the service). */
export const session = z.object({
  id: z.string(),
  kind: z.enum(sessionKinds),
  /** The record it belongs to (a project, a task, a todo, a conversation). */
  owner_id: z.string().nullable(),
  status: z.enum(sessionStatuses),
  /** The runner kind that ran it. */
  runner: z.enum(runnerKinds).nullable(),
  runner_config_id: z.string(),
  /** The runner's own conversation id: later turns resume it. */
  runner_session_id: z.string().nullable(),
  /** The Keel run of its latest turn, for the Keel runner. */
  run_id: z.string().nullable(),
  error: errorObject.nullable(),
  usage: usage.nullable(),
  last_seq: z.number().int(),
  /** Work was accepted and has not ended (the turn, the work before it, or its queued messages). */
  busy: z.boolean(),
  created_at: timestamp,
  updated_at: timestamp,
  ended_at: timestamp.nullable(),
});
export type Session = z.infer<typeof session>;

/** A chat message waiting for its session's turn to end. */
export const queuedMessage = z.object({ id: z.string(), content: z.string(), queued_at: timestamp });
export type QueuedMessage = z.infer<typeof queuedMessage>;

/** `GET /api/sessions/{id}/queue` and the answer of removing one. */
export const sessionQueue = z.object({ session_id: z.string(), messages: z.array(queuedMessage) });
export type SessionQueue = z.infer<typeof sessionQueue>;

/** The 202 of `POST /api/sessions/{id}/messages`: a turn now, or queued behind the running one. */
export const sentMessage = z.object({
  session_id: z.string(),
  message_id: z.string(),
  queued: z.boolean(),
  position: z.number().int().optional(),
});
export type SentMessage = z.infer<typeof sentMessage>;
