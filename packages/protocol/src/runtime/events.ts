import { type EventType, errorObjectSchema, eventSchemas } from '@keel/runtime/wire';
import { z } from 'zod';
import { errorObject } from './common.ts';

// Every event of a run, as `GET /runtime/runs/{id}/events` (each `data:` line), `POST /run/stream` and
// the WebSockets carry it: the spec's stream events (section 4) and the sub-agent events of a parent's
// log. They are the runtime's own table (`eventSchemas` of `@keel/runtime/wire`, written once:
// docs/decisions/2026-11-28-wire-defined-once.md), each with `type` and `session_id` added.

/** What the agent says of its own answer (the `done` event), and one tool call of a run. */
export {
  metadataSchema as runMetadata,
  type RunMetadata,
  type ToolTrace,
  toolTraceSchema as toolTrace,
} from '@keel/runtime/wire';

type Wire = typeof eventSchemas;

/** An event's schema: the runtime's fields after what every event carries, its `type` and its session. */
type RunEventSchema<K extends EventType> = ObjectOf<
  { type: z.ZodLiteral<K>; session_id: z.ZodString } & Wire[K]['shape']
>;
// A conditional type: TypeScript checks a shape for each event, not for the table's generic entry.
type ObjectOf<Shape> = Shape extends z.core.$ZodLooseShape ? z.ZodObject<Shape, z.core.$strip> : never;

// The wire's schemas this package also names for itself: a field holding one holds this package's instead,
// so keel-web's OpenAPI document refers to the named component (`ErrorObject`, which the error answers share).
// The two are equal: packages/server/test/protocol-agreement.test.ts.
const named = new Map<z.ZodType, z.ZodType>([[errorObjectSchema, errorObject]]);

function withHead<K extends EventType>(type: K, schema: Wire[K]): RunEventSchema<K> {
  const fields = Object.entries(schema.shape).map(([name, field]) => [name, named.get(field) ?? field]);
  const event = z.object({ type: z.literal(type), session_id: z.string(), ...Object.fromEntries(fields) });
  return (schema.description ? event.describe(schema.description) : event) as unknown as RunEventSchema<K>;
}

/** The registry of event types: one schema per `type`, in the runtime's order. */
export const runEventSchemas = Object.fromEntries(
  Object.entries(eventSchemas).map(([type, schema]) => [type, withHead(type as EventType, schema)]),
) as { readonly [K in EventType]: RunEventSchema<K> };

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
