import type { AgentState } from '../agent/index.ts';
import { StoreError } from '../errors/index.ts';
import type { Checkpoint, JsonValue } from '../store/index.ts';
import type { SchedulerState } from '../workflow/index.ts';
import {
  apply,
  applyText,
  type Grown,
  grown,
  jsonBytes,
  rewritten,
  sizeAfter,
  standsAlone,
} from './checkpoint-parts.ts';

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

type StoredAgent = Omit<AgentState, 'messages' | 'traces' | 'thinking'> & {
  messages: Grown<AgentState['messages']> | AgentState['messages'];
  traces: Grown<AgentState['traces']> | AgentState['traces'];
  thinking: Grown<string> | string;
};

/** A chain this much over twice the state is due a whole checkpoint: small states are not rewritten often. */
const minChainBytes = 64 * 1024;

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

  /**
   * A copy of `state` safe to store, with agent parts as changes; remembers it as saved. Only what may
   * change in place is copied (through JSON: the counters, the pending calls, the other nodes). The
   * parts' items (messages, tool traces) are shared: they are never changed once in the list (a prune or
   * a compaction puts new objects in it). Copying them too wrote the state out and read it back at every
   * step, and a whole checkpoint (every tool output so far, in the traces) made several multi-MB copies
   * that lived on in the old generation until the next full GC (issue #44).
   */
  encode(state: SchedulerState): JsonValue {
    const whole = this.#chainBytes > 2 * this.#stateBytes + minChainBytes;
    const skeleton: Record<string, unknown> = {};
    const parts = new Map<string, Pick<StoredAgent, 'messages' | 'traces' | 'thinking'>>();
    // The parts' own bytes (estimated), and what their stored form weighs in this checkpoint.
    let partBytes = 0;
    let writtenPartBytes = 0;
    for (const [id, node] of Object.entries(state.nodes)) {
      const agent = node.agent;
      if (!agent) {
        skeleton[id] = node;
        continue;
      }
      const change = this.#change(id, agent);
      partBytes += change.bytes.messages + change.bytes.traces + change.bytes.thinking;
      writtenPartBytes += whole
        ? change.bytes.messages + change.bytes.traces + change.bytes.thinking
        : change.written;
      parts.set(id, whole ? wholeParts(agent) : change.parts);
      // Placeholders keep the parts' keys in place; the parts go in after the copy.
      skeleton[id] = { ...node, agent: { ...agent, messages: 0, traces: 0, thinking: 0 } };
      this.#saved.set(id, { ...savedOf(agent), bytes: change.bytes });
    }
    const text = JSON.stringify({ ...state, nodes: skeleton });
    const stored = JSON.parse(text) as { nodes: Record<string, { agent: StoredAgent }> };
    for (const [id, each] of parts) Object.assign(stored.nodes[id]!.agent, each);
    // The stored JSON's length, within a few bytes a part: each placeholder is one, a part's keys ~24.
    const length = text.length + writtenPartBytes + parts.size * 3 * 23;
    this.#stateBytes = Math.max(0, length - writtenPartBytes) + partBytes;
    this.#chainBytes = isWhole(stored as unknown as JsonValue) ? length : this.#chainBytes + length;
    return stored as unknown as JsonValue;
  }

  /**
   * An agent's parts as changes since they were last saved, each part's JSON bytes after it (estimated)
   * and what the changes weigh. Only the changes are serialised to measure them, never a whole part the
   * sizes of the saved one already tell.
   */
  #change(id: string, agent: AgentState) {
    const saved = this.#saved.get(id);
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
    };
    const thinkingBytes = (thinking.base === 0 ? 0 : (known?.bytes.thinking ?? 0)) + thinking.delta.length;
    return {
      parts: { messages, traces, thinking },
      bytes: { messages: sized.messages.bytes, traces: sized.traces.bytes, thinking: thinkingBytes },
      written: sized.messages.written + sized.traces.written + thinking.delta.length,
    };
  }
}

/** Every part of an agent whole (base 0): a checkpoint that decodes on its own. */
function wholeParts(agent: AgentState): Pick<StoredAgent, 'messages' | 'traces' | 'thinking'> {
  return {
    messages: { base: 0, delta: agent.messages.slice() },
    traces: { base: 0, delta: agent.traces.slice() },
    thinking: { base: 0, delta: agent.thinking },
  };
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
