export type {
  EventBody,
  EventOf,
  EventType,
  RunMetadata,
  RuntimeEvent,
  ToolTrace,
  Usage,
} from './definitions.ts';
export { eventSchemas, parseEvent } from './definitions.ts';
export { EventManager } from './event-manager.ts';
