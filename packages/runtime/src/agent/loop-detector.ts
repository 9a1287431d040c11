import { diffChars } from 'diff';
import type { ChatMessage } from '../model/index.ts';

/** The circuit breaker's loop check (spec section 8): how many turns, and how alike they must be. */
export interface LoopLimits {
  /** Consecutive tool turns compared (default 6). */
  turns: number;
  /** Sequence-similarity ratio (0..1) at or above which two turns count as the same (default 0.9). */
  threshold: number;
}

export const defaultLoopLimits: LoopLimits = { turns: 6, threshold: 0.9 };

/** Only the head of each turn is compared: enough to see a repeat, and it bounds the cost of the diff. */
const COMPARED_CHARS = 2000;

/**
 * Looks for an agent going round in circles: the last `turns` tool turns each at least `threshold`
 * similar to the one before. A turn is its tool calls with their results (`name(args) → result`), so
 * the same result from different calls, such as writing several files, is not a loop.
 * Returns the lowest similarity among the compared pairs when it is a loop, null otherwise.
 */
export function detectLoop(messages: readonly ChatMessage[], limits: LoopLimits): number | null {
  if (limits.turns < 2) return null;
  const turns = lastToolTurns(messages, limits.turns);
  if (turns.length < limits.turns) return null;
  let lowest = 1;
  // Newest pair first: when the agent is not looping, that is the one that shows it.
  for (let i = turns.length - 1; i >= 1; i--) {
    const ratio = similarity(turns[i - 1]!, turns[i]!, limits.threshold);
    if (ratio < limits.threshold) return null;
    lowest = Math.min(lowest, ratio);
  }
  return lowest;
}

/**
 * The sequence-similarity ratio of two texts, 2·M / (|a| + |b|) with M the characters they share in
 * order (as Python's difflib). Gives up early, returning 0, once the texts are known to be less alike
 * than `atLeast`.
 */
export function similarity(a: string, b: string, atLeast = 0): number {
  const total = a.length + b.length;
  if (total === 0 || a === b) return 1;
  // Every edit (a character inserted or deleted) costs one shared character in the ratio.
  // (The epsilon keeps a floating-point 19.999… from flooring a whole 20 down to 19.)
  const maxEditLength = Math.floor((1 - atLeast) * total + 1e-9);
  // A character diff of two unlike texts is slow (O(length × edits)); a trigram count rules most out first.
  if (atLeast > 0 && minEdits(a, b) > maxEditLength) return 0;
  const changes = diffChars(a, b, { maxEditLength });
  if (!changes) return 0;
  const shared = changes.reduce(
    (sum, part) => (part.added || part.removed ? sum : sum + part.value.length),
    0,
  );
  return (2 * shared) / total;
}

const Q = 3;

// Q-gram counts hashed into a reused table: no string or map entry per Q-gram (this runs after every tool
// batch, on up to 2 × COMPARED_CHARS characters). Q-grams that share a bucket only lower the count, so it
// stays a lower bound; `touched` lists the buckets to read and clear.
const buckets = new Int32Array(1 << 16);
let touched = new Uint32Array(2 * COMPARED_CHARS);

/**
 * A lower bound on the insertions and deletions that turn `a` into `b`: one such edit changes at most
 * 2·Q − 1 of a text's Q-grams, so the difference of the two Q-gram counts needs at least that many edits.
 */
function minEdits(a: string, b: string): number {
  if (touched.length < a.length + b.length) touched = new Uint32Array(a.length + b.length);
  let used = 0;
  const count = (text: string, sign: number) => {
    for (let i = 0; i + Q <= text.length; i++) {
      const bucket =
        (Math.imul(text.charCodeAt(i), 0x9e3779b1) ^
          Math.imul(text.charCodeAt(i + 1), 0x85ebca6b) ^
          Math.imul(text.charCodeAt(i + 2), 0xc2b2ae35)) >>>
        16;
      if (buckets[bucket] === 0) touched[used++] = bucket;
      buckets[bucket]! += sign;
    }
  };
  count(a, 1);
  count(b, -1);
  let difference = 0;
  for (let i = 0; i < used; i++) {
    const bucket = touched[i]!;
    difference += Math.abs(buckets[bucket]!);
    buckets[bucket] = 0;
  }
  return Math.ceil(difference / (2 * Q - 1));
}

/** The texts of the last `count` completed tool turns since the user last spoke, oldest first. */
function lastToolTurns(messages: readonly ChatMessage[], count: number): string[] {
  const turns: string[] = [];
  for (let i = messages.length - 1; i >= 0 && turns.length < count; i--) {
    const message = messages[i]!;
    // Earlier requests of the session are other work: a loop is counted within this one.
    if (message.role === 'user') break;
    if (message.role !== 'assistant' || !message.tool_calls?.length) continue;
    const results = new Map<string, string>();
    // Only the tool replies right after the call: no copy of the rest of the history per turn.
    for (let j = i + 1; j < messages.length; j++) {
      const reply = messages[j]!;
      if (reply.role !== 'tool') break;
      results.set(reply.tool_call_id, reply.content);
    }
    // A turn whose calls are not all answered yet is still running: not a completed turn.
    if (message.tool_calls.some((call) => !results.has(call.id))) continue;
    const text = message.tool_calls
      .map((call) => `${call.name}(${call.arguments}) → ${results.get(call.id)}`)
      .join('\n');
    turns.unshift(text.slice(0, COMPARED_CHARS));
  }
  return turns;
}
