import { z } from 'zod';
import { errorObject, usage } from './common.ts';

// Every event of a run, as `GET /runtime/runs/{id}/events` (each `data:` line), `POST /run/stream` and
// the WebSockets carry it: the spec's stream events (section 4) and the sub-agent events of a parent's
// log. The runtime defines them in its `eventSchemas` (packages/runtime/src/events/definitions.ts);
// these are the same fields with `type` and `session_id`, and packages/server/test/protocol-agreement.test.ts
// proves the two agree.

/** The fields every event carries: what it is, and the session its run belongs to. */
function event<const Type extends string, const Shape extends z.ZodRawShape>(type: Type, shape: Shape) {
  return z.object({ type: z.literal(type), session_id: z.string(), ...shape });
}

export const toolTrace = z.object({
  tool_name: z.string(),
  args: z.record(z.string(), z.unknown()),
  result: z.string(),
});
export type ToolTrace = z.infer<typeof toolTrace>;

/** What the agent says of its own answer (the `done` event). */
export const runMetadata = z.object({
  summary: z.string(),
  confidence: z.number().min(0).max(1),
  issues: z.array(z.string()),
  next_steps: z.array(z.string()),
});
export type RunMetadata = z.infer<typeof runMetadata>;

/** The registry of event types: one schema per `type`. */
export const runEventSchemas = {
  session_start: event('session_start', {}),
  thinking: event('thinking', { content: z.string() }),
  tool_call: event('tool_call', {
    tool_name: z.string(),
    args: z.record(z.string(), z.unknown()),
    tool_call_id: z.string(),
  }),
  tool_result: event('tool_result', { tool_name: z.string(), tool_call_id: z.string(), result: z.string() }),
  text_delta: event('text_delta', { content: z.string() }),
  done: event('done', {
    output: z.string(),
    thinking: z.string(),
    tool_traces: z.array(toolTrace),
    usage,
    metadata: runMetadata,
  }),
  compact: event('compact', {
    original_messages: z.number().int(),
    compacted_messages: z.number().int(),
    estimated_tokens_saved: z.number().int(),
  }),
  prune: event('prune', { pruned_count: z.number().int(), estimated_tokens_saved: z.number().int() }),
  circuit_breaker: event('circuit_breaker', {
    reason: z.string(),
    tokens_used: z.number().int(),
    cost_usd: z.number(),
  }),
  cancelled: event('cancelled', {}),
  retry: event('retry', { attempt: z.number().int(), max_attempts: z.number().int(), error: z.string() }),
  /** The run waits for a human: a tool approval, or a question (`kind`). */
  interaction_request: event('interaction_request', {
    request_id: z.string(),
    kind: z.string(),
    prompt: z.string(),
    options: z.array(z.string()),
  }),
  /** A message sent to the running run was shown to the model. */
  user_input_received: event('user_input_received', { content: z.string() }),
  error: event('error', { error: errorObject }),
  /** A sub-agent this run spawned (beyond the spec's stream events: docs/decisions/…-sub-agents.md). */
  agent_spawned: event('agent_spawned', {
    agent_id: z.string(),
    run_id: z.string(),
    agent_type: z.string(),
    task: z.string(),
  }),
  agent_finished: event('agent_finished', {
    agent_id: z.string(),
    run_id: z.string(),
    status: z.string(),
    error: z.string().nullable(),
  }),
  /** A worker took the run over after its lease expired (its worker or server died) and queued it again. */
  run_recovered: event('run_recovered', {
    lost_owner: z.string().nullable(),
    recovered_by: z.string(),
    recovery: z.number().int(),
  }),
} as const;

type Schemas = typeof runEventSchemas;
export type RunEventType = keyof Schemas;
export const runEventTypes = Object.keys(runEventSchemas) as RunEventType[];

/** A run's event, as every surface sees it. */
export const runEvent = z.discriminatedUnion('type', [
  runEventSchemas.session_start,
  runEventSchemas.thinking,
  runEventSchemas.tool_call,
  runEventSchemas.tool_result,
  runEventSchemas.text_delta,
  runEventSchemas.done,
  runEventSchemas.compact,
  runEventSchemas.prune,
  runEventSchemas.circuit_breaker,
  runEventSchemas.cancelled,
  runEventSchemas.retry,
  runEventSchemas.interaction_request,
  runEventSchemas.user_input_received,
  runEventSchemas.error,
  runEventSchemas.agent_spawned,
  runEventSchemas.agent_finished,
  runEventSchemas.run_recovered,
]);
export type RunEvent = z.infer<typeof runEvent>;
export type RunEventOf<K extends RunEventType> = z.infer<Schemas[K]>;
