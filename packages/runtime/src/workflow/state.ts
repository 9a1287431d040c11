import type { AgentState } from '../agent/index.ts';
import type { ErrorObject } from '../errors/index.ts';
import type { JsonValue } from '../store/index.ts';
import { allNodes, childrenOf, type WorkflowNode } from './definition.ts';

/** Where one node stands; saved in every checkpoint. */
export interface NodeState {
  status: 'running' | 'succeeded' | 'failed' | 'skipped';
  /** Attempts made so far (the node's retry policy counts them). */
  attempts: number;
  output?: JsonValue;
  error?: ErrorObject;
  /** Agent nodes: the conversation and counters to continue from. */
  agent?: AgentState;
  /** Approval nodes: the approval asked for. */
  approval_id?: string;
  /** Condition nodes: the branch taken, decided once. Fallback nodes: the index of the child to try. */
  branch?: 'then' | 'else' | number;
  /** Gate nodes: repairs made so far. */
  repairs?: number;
  /** Gate nodes: every decision so far, with each check's verdict. */
  verdicts?: JsonValue[];
  /** Task graph nodes: the tasks the planner wrote, kept so a resumed run does not plan again. */
  tasks?: JsonValue;
}

/** The scheduler's whole state: what a checkpoint holds and what resume, retry and fork start from. */
export interface SchedulerState {
  version: 1;
  nodes: Record<string, NodeState>;
  usage: { input_tokens: number; output_tokens: number };
  cost_usd: number;
  /** Tool-call steps taken (the max_steps budget). */
  tool_steps: number;
  /** Execution time spent, summed over every process that worked on the run. */
  elapsed_ms: number;
  /** Ids of the user messages already shown to an agent (absent in checkpoints from before they existed). */
  user_inputs?: string[];
}

export function newSchedulerState(): SchedulerState {
  return {
    version: 1,
    nodes: {},
    usage: { input_tokens: 0, output_tokens: 0 },
    cost_usd: 0,
    tool_steps: 0,
    elapsed_ms: 0,
  };
}

/** Forgets the state of a node's descendants, so the subtree runs afresh (a retry or a repair). */
export function resetDescendants(state: SchedulerState, node: WorkflowNode): void {
  for (const child of childrenOf(node)) {
    for (const descendant of allNodes(child)) delete state.nodes[descendant.id];
  }
  // The nodes a gate or a task graph made up (`<id>.<part>`: its reviewers, planner and tasks).
  if (node.kind === 'gate' || node.kind === 'task_graph') {
    for (const id of Object.keys(state.nodes)) if (id.startsWith(`${node.id}.`)) delete state.nodes[id];
  }
}

/** Forgets a whole subtree, the node itself included. */
export function resetSubtree(state: SchedulerState, node: WorkflowNode): void {
  for (const each of allNodes(node)) delete state.nodes[each.id];
}
