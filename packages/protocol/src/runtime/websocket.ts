import { z } from 'zod';
import { errorObject } from './common.ts';
import { runEventSchemas } from './events.ts';

// keel-web's WebSockets (spec section 4): `WS /ws`, one conversation per connection, and the project and
// task chats `WS /ws/chat/{project_id}` and `WS /ws/chat/task/{task_id}`, which speak the same messages
// with a narrower `run` and a `ready` first.

/**
 * `run.data` on `/ws`: a run request (`runRequest`); the runtime checks it field by field when the run
 * starts, so only `prompt` is checked here. `workdir` defaults to the server's.
 */
export const wsRunData = z.looseObject({ prompt: z.string() });

/**
 * `run.data` on a chat socket: the workdir and session are the project's or task's, so they are not
 * taken; each image is checked by the run request's own schema when the run starts.
 */
export const chatRunData = z.strictObject({
  prompt: z.string(),
  images: z.array(z.unknown()).optional(),
  model: z.string().min(1).optional(),
  enable_thinking: z.boolean().optional(),
  thinking_budget: z.number().int().positive().optional(),
});
export type ChatRunData = z.input<typeof chatRunData>;

/** The messages that steer a connection's run, the same on every socket. */
const steering = [
  /** Stops the connection's run (the run, not the connection). */
  z.object({ type: z.literal('cancel') }),
  /** A message for the running run, shown to the model at its next turn (`user_input_received`). */
  z.object({ type: z.literal('user_input'), content: z.string().min(1) }),
  /** Answers an `interaction_request`: `answer` a question, `approve` or `reject` a tool call. */
  z.object({
    type: z.literal('submit_interaction'),
    request_id: z.string().min(1),
    action: z.enum(['answer', 'approve', 'reject']).default('answer'),
    /** The answer, or the reason given with a decision. */
    content: z.string().optional(),
  }),
  /** Answered by `pong`. */
  z.object({ type: z.literal('ping') }),
] as const;

/** What a client sends on `WS /ws`: `run` starts a run (answered by `start`, then its events). */
export const wsClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('run'), data: wsRunData }),
  ...steering,
]);
export type WsClientMessage = z.input<typeof wsClientMessage>;

/** What a client sends on a chat socket: `run` is a turn in the project's or task's session. */
export const chatClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('run'), data: chatRunData }),
  ...steering,
]);
export type ChatClientMessage = z.input<typeof chatClientMessage>;

/** The cursor every run event carries on a socket: its sequence number in the run's log. */
const seq = z.number().int();

/** A run event as the sockets send it: with its `seq`. `session_start` is sent as `start`, `error` as `wsError`. */
export const wsRunEventSchemas = {
  thinking: runEventSchemas.thinking.extend({ seq }),
  tool_call: runEventSchemas.tool_call.extend({ seq }),
  tool_result: runEventSchemas.tool_result.extend({ seq }),
  text_delta: runEventSchemas.text_delta.extend({ seq }),
  done: runEventSchemas.done.extend({ seq }),
  compact: runEventSchemas.compact.extend({ seq }),
  prune: runEventSchemas.prune.extend({ seq }),
  circuit_breaker: runEventSchemas.circuit_breaker.extend({ seq }),
  cancelled: runEventSchemas.cancelled.extend({ seq }),
  retry: runEventSchemas.retry.extend({ seq }),
  interaction_request: runEventSchemas.interaction_request.extend({ seq }),
  user_input_received: runEventSchemas.user_input_received.extend({ seq }),
  agent_spawned: runEventSchemas.agent_spawned.extend({ seq }),
  agent_finished: runEventSchemas.agent_finished.extend({ seq }),
  run_recovered: runEventSchemas.run_recovered.extend({ seq }),
} as const;

/** The first message of a run: `session_start` on this surface (spec section 4), with the run and its seq. */
export const wsStart = z.object({
  type: z.literal('start'),
  session_id: z.string(),
  run_id: z.string(),
  seq,
});

/**
 * A reconnect (`?session_id=`, optionally `&after=<seq>`) found the session's run: its events follow
 * from `after` (default: from now, `last_seq`).
 */
export const wsResuming = z.object({
  type: z.literal('resuming'),
  session_id: z.string(),
  run_id: z.string(),
  /** The run's last event when the connection was opened. */
  last_seq: z.number().int(),
});

/**
 * An error: the run's `error` event (with `session_id` and `seq`), or a refusal of a message of this
 * connection (without them: an invalid message, no run to cancel, an unknown approval…).
 */
export const wsError = z.object({
  type: z.literal('error'),
  error: errorObject,
  session_id: z.string().optional(),
  seq: seq.optional(),
});

export const wsPong = z.object({ type: z.literal('pong') });

/** A chat socket's first message: what it talks about (a task's adds its id and branch). */
export const chatReady = z.object({
  type: z.literal('ready'),
  project_id: z.string(),
  task_id: z.string().optional(),
  branch_name: z.string().optional(),
  /** The session its turns continue; null for a project that has none yet. */
  session_id: z.string().nullable(),
  workdir: z.string(),
});

/** A run event (but `session_start` and `error`) as a socket sends it, with its `seq`. */
export type WsRunEvent = z.infer<(typeof wsRunEventSchemas)[keyof typeof wsRunEventSchemas]>;
const wsRunEvents = Object.values(wsRunEventSchemas);

/** What keel-web sends on `WS /ws`: `start`, the run's events with their `seq`, `resuming`, `error`, `pong`. */
export const wsServerMessage = z.discriminatedUnion('type', [
  wsStart,
  ...wsRunEvents,
  wsResuming,
  wsError,
  wsPong,
]);
export type WsServerMessage = z.infer<typeof wsServerMessage>;

/** What keel-web sends on a chat socket: `ready` first, then what `/ws` sends. */
export const chatServerMessage = z.discriminatedUnion('type', [
  chatReady,
  wsStart,
  ...wsRunEvents,
  wsResuming,
  wsError,
  wsPong,
]);
export type ChatServerMessage = z.infer<typeof chatServerMessage>;
