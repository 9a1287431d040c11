import { z } from 'zod';
import { type EventType, eventSchemas, type RuntimeEvent } from '../wire/index.ts';

// The event table itself travels on the wire: it lives in src/wire/ (zod only), where @keel/protocol takes
// it from (docs/decisions/2026-11-28-wire-defined-once.md). The runtime keeps its names here.
export type {
  EventBody,
  EventOf,
  EventType,
  RunMetadata,
  RuntimeEvent,
  ToolTrace,
  Usage,
} from '../wire/index.ts';
export { eventSchemas, metadataSchema, toolTraceSchema, usageSchema } from '../wire/index.ts';

/** Validates an event against its definition; for tests and client-side checks, not the hot path. */
export function parseEvent(value: unknown): RuntimeEvent {
  const base = z.object({ type: z.enum(Object.keys(eventSchemas) as [EventType]), session_id: z.string() });
  const head = base.parse(value);
  const body = eventSchemas[head.type]
    .strict()
    .extend({ type: z.string(), session_id: z.string() })
    .parse(value);
  return body as RuntimeEvent;
}
