import type { AgentState } from '../agent/index.ts';
import { StoreError } from '../errors/index.ts';
import type { Checkpoint, JsonValue } from '../store/index.ts';
import type { SchedulerState } from '../workflow/index.ts';

/**
 * Checkpoints store each agent's growing parts (conversation, tool traces, thinking) as what changed since
 * the previous checkpoint of the same execution, so a checkpoint costs what its step changed, not the
 * history. A stored list is `{ base, delta, patch? }`: keep the first `base` items the checkpoints before
 * it held, put the `patch` items (`[index, item]`, each below `base`) in place, then append `delta`.
 * Growth is a `delta`; a history rewritten by pruning (the agent's `rewrites` counter moved, and the
 * conversation is a new array sharing the messages it kept) is a `patch` of the messages that changed.
 * A compaction, which replaces most of the history, is stored whole (base 0), as is a new conversation.
 *
 * Loading reads the checkpoints from the latest whole one (`isWhole`: it decodes alone; the store keeps the
 * mark, `RunStore.checkpointChain`). While a run only grows, that chain is about the state's size. When the
 * state shrinks (pruned outputs, compactions) the chain keeps growing: once it outweighs twice the state
 * (plus `minChainBytes`), the next checkpoint is whole. So a resume reads at most about twice the state,
 * and the whole checkpoints together weigh no more than the changes before them.
 */
interface Saved {
  conversation: string;
  /** The agent's `rewrites` when saved. */
  rewrites: number;
  /** The messages array as saved and its length then: a rewrite is compared with it, message by message. */
  array: AgentState['messages'];
  messages: number;
  traces: number;
  thinking: number;
  /** The JSON bytes of each part as saved, estimated from what was written. */
  bytes: PartBytes;
}

interface PartBytes {
  messages: number;
  traces: number;
  thinking: number;
}

interface Grown<T> {
  base: number;
  delta: T;
  /** Items replaced below `base`: `[index, item]`. */
  patch?: [number, T extends (infer Item)[] ? Item : never][];
}

type StoredAgent = Omit<AgentState, 'messages' | 'traces' | 'thinking'> & {
  messages: Grown<AgentState['messages']> | AgentState['messages'];
  traces: Grown<AgentState['traces']> | AgentState['traces'];
  thinking: Grown<string> | string;
};

/** A chain this much over twice the state is due a whole checkpoint: small states are not rewritten often. */
const minChainBytes = 64 * 1024;

const jsonBytes = (value: unknown): number => JSON.stringify(value).length;

export class CheckpointCodec {
  /** What the store already holds, per node: the parts written so far of its current conversation. */
  readonly #saved = new Map<string, Saved>();
  /** JSON bytes of the checkpoints from the latest whole one on: what loading the state reads. */
  #chainBytes = 0;
  /** JSON bytes of the state itself (estimated): what a whole checkpoint would weigh. */
  #stateBytes = 0;

  /**
   * Records that `state` (as loaded) is what the store holds; `chainBytes` are the JSON sizes of the
   * checkpoints it was loaded from, so the next whole one comes when it is due.
   */
  remember(state: SchedulerState, chainBytes: readonly number[] = []): void {
    for (const [id, node] of Object.entries(state.nodes)) {
      if (!node.agent) continue;
      const agent = node.agent;
      this.#saved.set(id, {
        ...savedOf(agent),
        bytes: {
          messages: jsonBytes(agent.messages),
          traces: jsonBytes(agent.traces),
          thinking: agent.thinking.length,
        },
      });
    }
    this.#chainBytes = chainBytes.reduce((sum, bytes) => sum + bytes, 0);
    this.#stateBytes = jsonBytes(state);
  }

  /** A copy of `state` safe to store, with agent parts as changes; remembers it as saved. */
  encode(state: SchedulerState): JsonValue {
    const whole = this.#chainBytes > 2 * this.#stateBytes + minChainBytes;
    const nodes: Record<string, unknown> = {};
    // The parts' own bytes (estimated), and what their stored form weighed in this checkpoint.
    let partBytes = 0;
    let writtenPartBytes = 0;
    for (const [id, node] of Object.entries(state.nodes)) {
      if (!node.agent) {
        nodes[id] = node;
        continue;
      }
      const agent = node.agent;
      const saved = whole ? undefined : this.#saved.get(id);
      const known = saved?.conversation === agent.conversation ? saved : undefined;
      const messages =
        known && known.rewrites !== (agent.rewrites ?? 0)
          ? rewritten(agent.messages, known.array, known.messages)
          : grown(agent.messages, known?.messages);
      const traces = grown(agent.traces, known?.traces);
      const thinking = grown(agent.thinking, known?.thinking);
      const sized = {
        messages: sizeAfter(messages, known?.bytes.messages, known?.array),
        traces: sizeAfter(traces, known?.bytes.traces),
        thinking: (thinking.base === 0 ? 0 : (known?.bytes.thinking ?? 0)) + thinking.delta.length,
      };
      partBytes += sized.messages.bytes + sized.traces.bytes + sized.thinking;
      writtenPartBytes += sized.messages.written + sized.traces.written + thinking.delta.length;
      const stored: StoredAgent = { ...agent, messages, traces, thinking };
      nodes[id] = { ...node, agent: stored };
      this.#saved.set(id, {
        ...savedOf(agent),
        bytes: { messages: sized.messages.bytes, traces: sized.traces.bytes, thinking: sized.thinking },
      });
    }
    const stored = { ...state, nodes } as unknown as JsonValue;
    const text = JSON.stringify(stored);
    this.#stateBytes = Math.max(0, text.length - writtenPartBytes) + partBytes;
    this.#chainBytes = isWhole(stored) ? text.length : this.#chainBytes + text.length;
    return JSON.parse(text) as JsonValue;
  }
}

/** True when a stored state decodes on its own: every agent part in it is whole. */
export function isWhole(stored: JsonValue): boolean {
  const nodes = (stored as unknown as SchedulerState).nodes ?? {};
  return Object.values(nodes).every((node) => {
    const agent = node.agent as unknown as StoredAgent | undefined;
    return !agent || [agent.messages, agent.traces, agent.thinking].every(standsAlone);
  });
}

/**
 * Rebuilds the full state at the last of `checkpoints`: a run's checkpoints, oldest first, from a whole
 * one (the run's first, or the latest whole one before the last) up to it.
 */
export function decodeCheckpoints(checkpoints: readonly Checkpoint[]): SchedulerState | null {
  const full = new Map<string, AgentState>();
  let last: SchedulerState | null = null;
  for (const checkpoint of checkpoints) {
    const state = checkpoint.state as unknown as SchedulerState;
    for (const [id, node] of Object.entries(state.nodes)) {
      if (!node.agent) continue;
      const stored = node.agent as unknown as StoredAgent;
      const before = full.get(id);
      const prior = before?.conversation === stored.conversation ? before : undefined;
      const fail = () => broken(checkpoint);
      full.set(id, {
        ...stored,
        // Lists are extended in place: folding n checkpoints costs their size, not n times the history.
        messages: apply(stored.messages, prior?.messages, fail),
        traces: apply(stored.traces, prior?.traces, fail),
        thinking: applyText(stored.thinking, prior?.thinking, fail),
      });
    }
    last = state;
  }
  if (!last) return null;
  const nodes = Object.fromEntries(
    Object.entries(last.nodes).map(([id, node]) => [
      id,
      node.agent ? { ...node, agent: full.get(id)! } : node,
    ]),
  );
  // Nothing of the result is shared with the checkpoints it came from.
  return structuredClone({ ...last, nodes });
}

/** A growing list or text: what was added since `saved` items (whole when nothing of it is saved). */
function grown<T extends unknown[] | string>(value: T, saved: number | undefined): Grown<T> {
  const base = saved !== undefined && saved <= value.length ? saved : 0;
  return { base, delta: value.slice(base) as T };
}

/**
 * A rewritten conversation against the one saved (`before`, of which `saved` messages are stored): the
 * messages that differ as a patch and the new ones as a delta. Whole when most of it changed (a
 * compaction), or when it was edited in place, which a comparison cannot see.
 */
function rewritten(
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
function sizeAfter<T>(
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

function standsAlone(part: Grown<unknown> | unknown[] | string): boolean {
  return typeof part === 'string' || Array.isArray(part) || part.base === 0;
}

function apply<T>(part: Grown<T[]> | T[], prior: T[] | undefined, fail: () => StoreError): T[] {
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

function applyText(part: Grown<string> | string, prior: string | undefined, fail: () => StoreError): string {
  if (typeof part === 'string') return part;
  if (part.base === 0) return part.delta;
  if (prior === undefined || prior.length < part.base) throw fail();
  return prior.slice(0, part.base) + part.delta;
}

function savedOf(agent: AgentState): Omit<Saved, 'bytes'> {
  return {
    conversation: agent.conversation,
    rewrites: agent.rewrites ?? 0,
    array: agent.messages,
    messages: agent.messages.length,
    traces: agent.traces.length,
    thinking: agent.thinking.length,
  };
}

function broken(checkpoint: Checkpoint): StoreError {
  return new StoreError(
    `Checkpoint '${checkpoint.id}' of run '${checkpoint.run_id}' continues a conversation that the checkpoints before it do not hold.`,
    { checkpoint_id: checkpoint.id, run_id: checkpoint.run_id },
  );
}
