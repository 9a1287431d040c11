import type { AgentState } from '../agent/index.ts';
import type { StoreError } from '../errors/index.ts';

// The stored form of an agent's growing parts (conversation, tool traces, thinking) and how checkpoints
// fold them back (checkpoint-codec.ts).

/** A stored list or text: keep `base` items of the one before, put `patch` items in place, append `delta`. */
export interface Grown<T> {
  base: number;
  delta: T;
  /** Items replaced below `base`: `[index, item]`. */
  patch?: [number, T extends (infer Item)[] ? Item : never][];
}

export const jsonBytes = (value: unknown): number => JSON.stringify(value).length;

/** A growing list or text: what was added since `saved` items (whole when nothing of it is saved). */
export function grown<T extends unknown[] | string>(value: T, saved: number | undefined): Grown<T> {
  const base = saved !== undefined && saved <= value.length ? saved : 0;
  return { base, delta: value.slice(base) as T };
}

/**
 * A rewritten conversation against the one saved (`before`, of which `saved` messages are stored): the
 * messages that differ as a patch and the new ones as a delta. Whole when most of it changed (a
 * compaction), or when it was edited in place, which a comparison cannot see.
 */
export function rewritten(
  messages: AgentState['messages'],
  before: AgentState['messages'],
  saved: number,
): Grown<AgentState['messages']> {
  if (messages === before) return { base: 0, delta: messages.slice() };
  const base = Math.min(saved, messages.length);
  const patch: [number, AgentState['messages'][number]][] = [];
  for (let i = 0; i < base; i++) {
    if (messages[i] !== before[i]) patch.push([i, messages[i]!]);
  }
  if (patch.length + messages.length - base > messages.length / 2)
    return { base: 0, delta: messages.slice() };
  return { base, delta: messages.slice(base), patch };
}

/**
 * A stored list part's effect on the list's JSON bytes: `bytes` after it (from `prior`, the bytes before,
 * and `before`, the items a patch replaces), and `written`, what the part itself weighs.
 */
export function sizeAfter<T>(
  part: Grown<T[]>,
  prior: number | undefined,
  before?: readonly T[],
): { bytes: number; written: number } {
  const delta = jsonBytes(part.delta);
  let bytes = part.base === 0 || prior === undefined ? delta : prior + delta;
  let written = delta;
  for (const [index, item] of part.patch ?? []) {
    const size = jsonBytes(item);
    bytes += size - (before?.[index] === undefined ? 0 : jsonBytes(before[index]));
    written += size;
  }
  return { bytes, written };
}

export function standsAlone(part: Grown<unknown> | unknown[] | string): boolean {
  return typeof part === 'string' || Array.isArray(part) || part.base === 0;
}

export function apply<T>(part: Grown<T[]> | T[], prior: T[] | undefined, fail: () => StoreError): T[] {
  if (Array.isArray(part)) return [...part];
  if (part.base === 0) return [...part.delta];
  if (!prior || prior.length < part.base) throw fail();
  prior.length = part.base;
  for (const [index, item] of part.patch ?? []) {
    if (index >= part.base) throw fail();
    prior[index] = item as T;
  }
  for (const item of part.delta) prior.push(item);
  return prior;
}

export function applyText(
  part: Grown<string> | string,
  prior: string | undefined,
  fail: () => StoreError,
): string {
  if (typeof part === 'string') return part;
  if (part.base === 0) return part.delta;
  if (prior === undefined || prior.length < part.base) throw fail();
  return prior.slice(0, part.base) + part.delta;
}
