/**
 * A workflow is data: a tree of nodes stored with its run, so a process that never saw it can resume it.
 * Every node has an `id` unique in the whole tree (nested workflows included), an optional `timeout_ms`
 * and an optional `retry` policy.
 */

/** A test on an earlier node's output, used by `condition` and `gate` nodes. */
export type Predicate =
  | { output_of: string; contains?: string; equals?: string; matches?: string; not?: boolean }
  | { all: Predicate[] }
  | { any: Predicate[] };

export interface RetryPolicy {
  /** Total attempts, the first included (1 = no retry). */
  max_attempts: number;
  /** Wait before each retry, doubled every time (default 0). */
  backoff_ms?: number;
}

interface NodeBase {
  id: string;
  /** The node fails with TIMEOUT when one attempt runs longer than this. */
  timeout_ms?: number;
  retry?: RetryPolicy;
}

export type WorkflowNode =
  | (NodeBase & {
      kind: 'agent';
      /** The task; `{{input.prompt}}` and `{{nodes.<id>.output}}` are filled in. */
      prompt: string;
      /** The specialist that works on it (code, research, test, generic or one from config): its tools and role. */
      specialist?: string;
      include_tools?: string[];
      exclude_tools?: string[];
    })
  | (NodeBase & { kind: 'tool'; tool: string; params?: Record<string, unknown> })
  | (NodeBase & { kind: 'approval'; prompt: string })
  | (NodeBase & {
      kind: 'gate';
      /** The work being checked: run first, and again after every repair. */
      body?: WorkflowNode;
      /** A check over node outputs (usually the body's). */
      check?: Predicate;
      /** Shell commands (tests, linters) run in the workdir like exec_command: each passes on exit code 0. */
      commands?: string[];
      /** A reviewer agent whose structured verdict (pass or fail, reasons) is one more check. */
      reviewer?: GateReviewer;
      /**
       * Runs when a check fails, with the failures (capped) added to its prompt when it is an agent and as
       * `{{nodes.<gate id>.output}}`; then every check is made again: at most `max_repairs` times.
       */
      repair?: WorkflowNode;
      max_repairs?: number;
    })
  | (NodeBase & {
      kind: 'task_graph';
      /** The tasks; without them a planner agent writes them from `request`. */
      tasks?: GraphTask[];
      /** What the planner turns into tasks (`{{input.prompt}}` by default). */
      request?: string;
      /** The specialist that takes a task whose own failed or that no specialist matches (default generic). */
      fallback?: string;
      /** Tasks working at once, at most (default 4). */
      max_parallel?: number;
    })
  | (NodeBase & { kind: 'sequence'; steps: WorkflowNode[] })
  | (NodeBase & { kind: 'parallel'; branches: WorkflowNode[] })
  | (NodeBase & {
      kind: 'join';
      /** Ids of earlier nodes whose outputs are combined, in this order (deterministic). */
      from: string[];
      /** `object` (default): `{id: output}`; `concat`: the outputs as text, one after another. */
      mode?: 'object' | 'concat';
    })
  | (NodeBase & { kind: 'condition'; if: Predicate; then: WorkflowNode; else?: WorkflowNode })
  | (NodeBase & { kind: 'fallback'; try: WorkflowNode[] })
  | (NodeBase & { kind: 'workflow'; workflow: Workflow });

/** What a gate's reviewer is asked; its answer must hold a verdict (task-graph.ts parseVerdict). */
export interface GateReviewer {
  /** What to review (`{{...}}` filled in); default: the run's request. */
  prompt?: string;
  /** Default `reviewer`: reads and searches, cannot edit or run commands. */
  specialist?: string;
}

/** One task of a task graph: routed by capability, started once every task it depends on succeeded. */
export interface GraphTask {
  id: string;
  capability: string;
  task: string;
  depends_on?: string[];
}

export interface Budgets {
  /** Tool-call steps across the run (0 = no limit). */
  max_steps?: number;
  max_tokens?: number;
  max_cost_usd?: number;
  /** Wall time spent executing, summed over every process that worked on the run. */
  max_duration_ms?: number;
}

export interface Workflow {
  name?: string;
  root: WorkflowNode;
  budgets?: Budgets;
}

/** The children of a node, in execution order. */
export function childrenOf(node: WorkflowNode): WorkflowNode[] {
  switch (node.kind) {
    case 'sequence':
      return node.steps;
    case 'parallel':
      return node.branches;
    case 'fallback':
      return node.try;
    case 'condition':
      return node.else ? [node.then, node.else] : [node.then];
    case 'gate':
      return [node.body, node.repair].filter((child): child is WorkflowNode => child !== undefined);
    case 'workflow':
      return [node.workflow.root];
    default:
      return [];
  }
}

/** Every node of the tree, depth first. */
export function allNodes(root: WorkflowNode): WorkflowNode[] {
  const out: WorkflowNode[] = [];
  const visit = (node: WorkflowNode) => {
    out.push(node);
    for (const child of childrenOf(node)) visit(child);
  };
  visit(root);
  return out;
}

/** The one-node workflow a plain run request becomes: an agent working on the prompt. */
export function agentWorkflow(): Workflow {
  return { root: { id: 'agent', kind: 'agent', prompt: '{{input.prompt}}' } };
}
