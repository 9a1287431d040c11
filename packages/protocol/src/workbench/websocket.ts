import { z } from 'zod';
import { errorObject, timestamp } from './common.ts';
import { logEntry } from './events.ts';
import { knowledgeLayers, knowledgeStatuses, projectStatuses } from './names.ts';
import { preview } from './previews.ts';
import { queuedMessage, session } from './sessions.ts';
import { followedMergeRequest, taskReview, taskState } from './tasks.ts';

// `WS /api/ws`: one connection carries many subscriptions. Channels: `session:{session_id}` (the session's
// log, replayed after a cursor then live, and its status), `task:{task_id}` (every change of the task, and its
// previews' state and output) and `project:{project_id}` (its status and its knowledge layers' on every change).

const channel = z
  .string()
  .regex(
    /^(session|task|project):[A-Za-z0-9_-]+$/,
    "must be 'session:<session_id>', 'task:<task_id>' or 'project:<project_id>'",
  );

/** What a client sends. */
export const clientMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('subscribe'),
    channel,
    /** Replay the log after this seq (default 0: all of it). */
    after: z.number().int().min(0).optional(),
  }),
  z.object({ type: z.literal('unsubscribe'), channel }),
  /** A chat message into a session: a turn now, or queued behind the running one (then `queued`). */
  z.object({ type: z.literal('chat'), session_id: z.string().min(1), content: z.string().min(1) }),
  z.object({ type: z.literal('ping') }),
]);
export type ClientMessage = z.infer<typeof clientMessage>;

/**
 * What `task:{id}` carries on every change of a task: its state and the parts that change by themselves
 * (the review, the followed merge requests, the error), not its images or inputs.
 */
export const taskSnapshot = z.object({
  id: z.string(),
  state: taskState,
  review: taskReview.nullable(),
  merge_requests: z.array(followedMergeRequest).nullable(),
  error: z.string().nullable(),
  updated_at: timestamp,
});
export type TaskSnapshot = z.infer<typeof taskSnapshot>;

/**
 * What `project:{id}` carries on every change of a project or of one of its knowledge layers: its status
 * (READY once its knowledge is generated) and each layer's, so a page follows the generation without polling.
 */
export const projectSnapshot = z.object({
  id: z.string(),
  status: z.enum(projectStatuses),
  error: z.string().nullable(),
  knowledge: z.array(
    z.object({
      repository: z.string(),
      layer: z.enum(knowledgeLayers),
      status: z.enum(knowledgeStatuses),
      error: z.string().nullable(),
    }),
  ),
  updated_at: timestamp,
});
export type ProjectSnapshot = z.infer<typeof projectSnapshot>;

/** What the server pushes on a channel. */
export const channelMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('event'), channel: z.string(), ...logEntry.shape }),
  z.object({ type: z.literal('status'), channel: z.string(), session }),
  z.object({
    type: z.literal('queue'),
    channel: z.string(),
    session_id: z.string(),
    messages: z.array(queuedMessage),
  }),
  z.object({ type: z.literal('task'), channel: z.string(), task: taskSnapshot }),
  z.object({ type: z.literal('project'), channel: z.string(), project: projectSnapshot }),
  /** On `task:{id}`: a preview of the task started, became reachable, ended or was stopped. */
  z.object({ type: z.literal('preview'), channel: z.string(), preview }),
  /** On `task:{id}`: output of a preview as it comes (`seq` counts its chunks from 1, per start). */
  z.object({
    type: z.literal('preview_log'),
    channel: z.string(),
    repository: z.string(),
    seq: z.number().int(),
    text: z.string(),
  }),
]);
export type ChannelMessage = z.infer<typeof channelMessage>;

/** Everything the server sends: channel messages, and the answers to the client's own messages. */
export const serverMessage = z.discriminatedUnion('type', [
  ...channelMessage.options,
  z.object({ type: z.literal('subscribed'), channel: z.string(), after: z.number().int() }),
  z.object({ type: z.literal('unsubscribed'), channel: z.string() }),
  z.object({
    type: z.literal('queued'),
    session_id: z.string(),
    message_id: z.string(),
    queued: z.literal(true),
    position: z.number().int().optional(),
  }),
  z.object({ type: z.literal('pong') }),
  z.object({
    type: z.literal('error'),
    /**
     * The channel the error is about, when it is about one: a refused `subscribe` (an unknown session or
     * task), or a refused `chat` (`session:<session_id>`). Absent for a message that could not be read.
     * Older services never send it.
     */
    channel: z.string().optional(),
    error: errorObject,
  }),
]);
export type ServerMessage = z.infer<typeof serverMessage>;
