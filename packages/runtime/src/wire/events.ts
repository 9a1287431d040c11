import { z } from 'zod';

/** An error as an `error` event carries it (the shape of every error answer's `error`). */
export const errorObjectSchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});

/** One tool call of a run, as the `done` event lists them. */
export const toolTraceSchema = z.object({
  tool_name: z.string(),
  args: z.record(z.string(), z.unknown()),
  result: z.string(),
});

/** Tokens a run (or a model turn) used. */
export const usageSchema = z.object({
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  total_tokens: z.number().int(),
  /** Beyond the spec: true when some counts are Keel's estimate, the server having sent no usage (issue #41). */
  estimated: z.boolean().optional(),
});

/** What the agent says of its own answer (the `done` event). */
export const metadataSchema = z.object({
  summary: z.string(),
  confidence: z.number().min(0).max(1),
  issues: z.array(z.string()),
  next_steps: z.array(z.string()),
});

/**
 * Every streamed event, defined once: the spec's names and fields (section 4). The TypeScript union,
 * SSE and WebSocket payloads and API docs all derive from this table. Each event also carries `type` and
 * `session_id`: the runtime stamps them, `@keel/protocol`'s `runEventSchemas` adds them to each schema.
 */
export const eventSchemas = {
  session_start: z.object({}),
  thinking: z.object({ content: z.string() }),
  tool_call: z.object({
    tool_name: z.string(),
    args: z.record(z.string(), z.unknown()),
    tool_call_id: z.string(),
  }),
  tool_result: z.object({ tool_name: z.string(), tool_call_id: z.string(), result: z.string() }),
  text_delta: z.object({ content: z.string() }),
  done: z.object({
    output: z.string(),
    thinking: z.string(),
    tool_traces: z.array(toolTraceSchema),
    usage: usageSchema,
    metadata: metadataSchema,
  }),
  compact: z.object({
    original_messages: z.number().int(),
    compacted_messages: z.number().int(),
    estimated_tokens_saved: z.number().int(),
  }),
  prune: z.object({ pruned_count: z.number().int(), estimated_tokens_saved: z.number().int() }),
  circuit_breaker: z.object({ reason: z.string(), tokens_used: z.number().int(), cost_usd: z.number() }),
  cancelled: z.object({}),
  retry: z.object({ attempt: z.number().int(), max_attempts: z.number().int(), error: z.string() }),
  /** The run waits for a human: a tool approval, or a question (`kind`). */
  interaction_request: z.object({
    request_id: z.string(),
    kind: z.string(),
    prompt: z.string(),
    options: z.array(z.string()),
  }),
  /** A message sent to the running run was shown to the model. */
  user_input_received: z.object({ content: z.string() }),
  error: z.object({ error: errorObjectSchema }),
  /** A sub-agent this run spawned (beyond the spec's stream events, in the parent's log: decisions/…-sub-agents.md). */
  agent_spawned: z.object({
    agent_id: z.string(),
    run_id: z.string(),
    agent_type: z.string(),
    task: z.string(),
  }),
  agent_finished: z.object({
    agent_id: z.string(),
    run_id: z.string(),
    status: z.string(),
    error: z.string().nullable(),
  }),
  /**
   * A worker took the run over after its lease expired (its worker or server died) and queued it again
   * (beyond the spec's stream events: runs/orphan-recovery.ts).
   */
  run_recovered: z.object({
    lost_owner: z.string().nullable(),
    recovered_by: z.string(),
    recovery: z.number().int(),
  }),
} as const;

export type EventType = keyof typeof eventSchemas;

/** An event's own fields, before the runtime stamps `session_id` on it. */
export type EventBody = {
  [K in EventType]: { type: K } & Fields<(typeof eventSchemas)[K]>;
}[EventType];

// zod infers `{}` schemas as Record<string, never>, which would forbid even `type`.
type Fields<S extends z.ZodType> = z.infer<S> extends Record<string, never> ? object : z.infer<S>;

/** A streamed runtime event, as every surface sees it. */
export type RuntimeEvent = EventBody & { session_id: string };

export type EventOf<K extends EventType> = Extract<RuntimeEvent, { type: K }>;

export type ToolTrace = z.infer<typeof toolTraceSchema>;
export type Usage = z.infer<typeof usageSchema>;
export type RunMetadata = z.infer<typeof metadataSchema>;
