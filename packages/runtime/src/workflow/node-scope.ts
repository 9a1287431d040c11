import type { JsonValue } from '../store/index.ts';
import type { WorkflowNode } from './definition.ts';
import type { SchedulerHooks } from './scheduler-hooks.ts';
import type { SchedulerState } from './state.ts';

/** What a node handler kept in a file of its own (gate, task graph) needs from the scheduler. */
export interface NodeScope {
  state: SchedulerState;
  hooks: SchedulerHooks;
  /** Runs a node, a tree one or one the handler made up (`<node id>.<part>`), with its saved state. */
  execute(node: WorkflowNode, signal: AbortSignal): Promise<JsonValue>;
  /** Forgets a subtree's state, so it runs afresh. */
  resetSubtree(node: WorkflowNode): void;
}
