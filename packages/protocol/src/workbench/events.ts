import { z } from 'zod';
import { errorObject, timestamp, usage } from './common.ts';
import { runnerKinds, toolKinds } from './names.ts';

// Every event a session log holds, as `GET /api/sessions/{id}/logs` and the WebSocket carry it: the
// runners' normalised events (each runner emits only these), the workbench's own steps, and user actions.

const toolKind = z.enum(toolKinds);

/** The registry of event types: one schema per `type`. */
export const sessionEventSchemas = {
  runner_started: z.object({
    type: z.literal('runner_started'),
    runner: z.enum(runnerKinds),
    runner_session_id: z.string().optional(),
    run_id: z.string().optional(),
  }),
  thinking: z.object({ type: z.literal('thinking'), content: z.string() }),
  text_delta: z.object({ type: z.literal('text_delta'), content: z.string() }),
  message: z.object({ type: z.literal('message'), role: z.enum(['assistant', 'user']), content: z.string() }),
  tool_call: z.object({
    type: z.literal('tool_call'),
    tool_call_id: z.string(),
    tool_name: z.string(),
    kind: toolKind,
    args: z.record(z.string(), z.unknown()),
    /** The file the call reads or edits, relative to the workdir, when there is one. */
    path: z.string().optional(),
  }),
  tool_result: z.object({
    type: z.literal('tool_result'),
    tool_call_id: z.string(),
    tool_name: z.string(),
    kind: toolKind,
    ok: z.boolean(),
    result: z.string(),
  }),
  usage: z.object({ type: z.literal('usage'), usage }),
  retry: z.object({
    type: z.literal('retry'),
    attempt: z.number(),
    max_attempts: z.number(),
    error: z.string(),
  }),
  error: z.object({ type: z.literal('error'), error: errorObject }),
  /** A step of the workbench's own work (task initialization), logged beside the runner's events. */
  step: z.object({
    type: z.literal('step'),
    step: z.string(),
    status: z.enum(['running', 'done', 'failed']),
    detail: z.string().optional(),
    error: errorObject.optional(),
    /** A command's step (setup): its output (as exec_command keeps it: long output cut in the middle). */
    output: z.string().optional(),
  }),
  /**
   * A change the user made by hand (the plan, the todo list, the commit message), logged in that stage's
   * session: `edit_plan`, `add_todo`, `edit_todo`, `remove_todo`, `reorder_todos`, `edit_commit_message`.
   */
  user_action: z.object({
    type: z.literal('user_action'),
    action: z.string(),
    detail: z.string(),
    data: z.record(z.string(), z.unknown()).optional(),
  }),
} as const;

type Schemas = typeof sessionEventSchemas;

/** The events a runner emits (every one but the workbench's steps and user actions). */
export const runnerEvent = z.discriminatedUnion('type', [
  sessionEventSchemas.runner_started,
  sessionEventSchemas.thinking,
  sessionEventSchemas.text_delta,
  sessionEventSchemas.message,
  sessionEventSchemas.tool_call,
  sessionEventSchemas.tool_result,
  sessionEventSchemas.usage,
  sessionEventSchemas.retry,
  sessionEventSchemas.error,
]);
export type RunnerEvent = z.infer<typeof runnerEvent>;

export const sessionEvent = z.discriminatedUnion('type', [
  ...runnerEvent.options,
  sessionEventSchemas.step,
  sessionEventSchemas.user_action,
]);
export type SessionEvent = z.infer<typeof sessionEvent>;
export type SessionEventType = keyof Schemas;
export type StepEvent = z.infer<Schemas['step']>;
export type UserActionEvent = z.infer<Schemas['user_action']>;

/** One line of a session's JSONL log. `seq` is gapless from 1. */
export const logEntry = z.object({ seq: z.number().int(), timestamp, event: sessionEvent });
export type LogEntry = z.infer<typeof logEntry>;

/** `GET /api/sessions/{id}/logs`: entries after the cursor; `next_cursor` is the next page's `after`. */
export const logPage = z.object({
  session_id: z.string(),
  entries: z.array(logEntry),
  next_cursor: z.number().int(),
  has_more: z.boolean(),
});
export type LogPage = z.infer<typeof logPage>;
