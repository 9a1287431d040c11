import type { AgentState } from '../agent/index.ts';
import { StoreError } from '../errors/index.ts';
import type { Checkpoint, JsonValue } from '../store/index.ts';
import type { SchedulerState } from '../workflow/index.ts';

/**
 * Checkpoints store each agent's growing parts (conversation, tool traces, thinking) as what was added
 * since the previous checkpoint of the same execution, so a long run writes O(turns) bytes instead of
 * O(turns²). A stored agent part is `{ base, delta }`: the first `base` items come from the checkpoints
 * before it. The first checkpoint an execution writes after loading is relative to what it loaded. A
 * conversation rewritten rather than grown (pruned or compacted: the agent's `rewrites`) is stored whole.
 */
interface Lengths {
  conversation: string;
  /** The agent's `rewrites` when saved: a rewritten history is stored whole (base 0). */
  rewrites: number;
  messages: number;
  traces: number;
  thinking: number;
}

interface Grown<T> {
  base: number;
  delta: T;
}

type StoredAgent = Omit<AgentState, 'messages' | 'traces' | 'thinking'> & {
  messages: Grown<AgentState['messages']> | AgentState['messages'];
  traces: Grown<AgentState['traces']> | AgentState['traces'];
  thinking: Grown<string> | string;
};

export class CheckpointCodec {
  /** What the store already holds, per node: the lengths written so far for its current conversation. */
  readonly #saved = new Map<string, Lengths>();

  /** Records that `state` (as loaded) is what the store holds. */
  remember(state: SchedulerState): void {
    for (const [id, node] of Object.entries(state.nodes)) {
      if (node.agent) this.#saved.set(id, lengthsOf(node.agent));
    }
  }

  /** A copy of `state` safe to store, with agent parts as deltas; remembers it as saved. */
  encode(state: SchedulerState): JsonValue {
    const nodes: Record<string, unknown> = {};
    for (const [id, node] of Object.entries(state.nodes)) {
      if (!node.agent) {
        nodes[id] = node;
        continue;
      }
      const agent = node.agent;
      const saved = this.#saved.get(id);
      const same = saved?.conversation === agent.conversation;
      const base = (length: number, was: number | undefined) =>
        same && was !== undefined && was <= length ? was : 0;
      const rewritten = saved?.rewrites !== (agent.rewrites ?? 0);
      const messages = rewritten ? 0 : base(agent.messages.length, saved?.messages);
      const traces = base(agent.traces.length, saved?.traces);
      const thinking = base(agent.thinking.length, saved?.thinking);
      const stored: StoredAgent = {
        ...agent,
        messages: { base: messages, delta: agent.messages.slice(messages) },
        traces: { base: traces, delta: agent.traces.slice(traces) },
        thinking: { base: thinking, delta: agent.thinking.slice(thinking) },
      };
      nodes[id] = { ...node, agent: stored };
      this.#saved.set(id, lengthsOf(agent));
    }
    return JSON.parse(JSON.stringify({ ...state, nodes })) as JsonValue;
  }
}

/** Rebuilds the full state at the last of `checkpoints` (a run's checkpoints, oldest first, up to it). */
export function decodeCheckpoints(checkpoints: readonly Checkpoint[]): SchedulerState | null {
  const full = new Map<string, AgentState>();
  let last: SchedulerState | null = null;
  for (const checkpoint of checkpoints) {
    const state = checkpoint.state as unknown as SchedulerState;
    for (const [id, node] of Object.entries(state.nodes)) {
      if (!node.agent) continue;
      const stored = node.agent as unknown as StoredAgent;
      const before = full.get(id);
      const sameConversation = before?.conversation === stored.conversation;
      const grow = <T>(part: Grown<T[]> | T[], prior: T[] | undefined): T[] => {
        if (Array.isArray(part)) return part;
        if (part.base === 0) return part.delta;
        if (!sameConversation || !prior || prior.length < part.base) throw broken(checkpoint);
        return [...prior.slice(0, part.base), ...part.delta];
      };
      const thinking =
        typeof stored.thinking === 'string'
          ? stored.thinking
          : stored.thinking.base === 0
            ? stored.thinking.delta
            : sameConversation && before && before.thinking.length >= stored.thinking.base
              ? before.thinking.slice(0, stored.thinking.base) + stored.thinking.delta
              : (() => {
                  throw broken(checkpoint);
                })();
      full.set(id, {
        ...stored,
        messages: grow(stored.messages, before?.messages),
        traces: grow(stored.traces, before?.traces),
        thinking,
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
  return structuredClone({ ...last, nodes });
}

function lengthsOf(agent: AgentState): Lengths {
  return {
    conversation: agent.conversation,
    rewrites: agent.rewrites ?? 0,
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
