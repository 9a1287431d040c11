import type { JsonObject } from './json.ts';

// What a run records as it goes: its events, and the control requests sent to it.

/** One stored event with its place in the run. */
export interface RunEventRecord {
  id: string;
  run_id: string;
  /** Gapless, from 1: resume after a disconnect with `listEvents(runId, { after: seq })`. */
  seq: number;
  type: string;
  /** The event exactly as delivered (it has at least `type`). */
  event: JsonObject;
  created_at: string;
}

/**
 * A stored event as its JSON text, as the store keeps it: what a replay sends on without parsing and
 * serialising every event again.
 */
export interface RunEventText {
  seq: number;
  type: string;
  /** The event's JSON, exactly as stored. */
  json: string;
}

export type ControlKind = 'cancel' | 'pause';
