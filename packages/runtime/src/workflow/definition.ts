import { z } from 'zod';
import { InvalidParamsError } from '../errors/index.ts';

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
      include_tools?: string[];
      exclude_tools?: string[];
    })
  | (NodeBase & { kind: 'tool'; tool: string; params?: Record<string, unknown> })
  | (NodeBase & { kind: 'approval'; prompt: string })
  | (NodeBase & {
      kind: 'gate';
      /** The work being checked: run first, and again after every repair. */
      body?: WorkflowNode;
      /** The quality check over node outputs (usually the body's); the gate passes when it holds. */
      check: Predicate;
      /** Runs when the check fails, then the check is made again: at most `max_repairs` times. */
      repair?: WorkflowNode;
      max_repairs?: number;
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

const predicateSchema: z.ZodType<Predicate> = z.lazy(() =>
  z.union([
    z.strictObject({
      output_of: z.string().min(1),
      contains: z.string().optional(),
      equals: z.string().optional(),
      matches: z.string().optional(),
      not: z.boolean().optional(),
    }),
    z.strictObject({ all: z.array(predicateSchema).min(1) }),
    z.strictObject({ any: z.array(predicateSchema).min(1) }),
  ]),
);

const base = {
  id: z.string().regex(/^[\w.-]{1,64}$/, 'node ids are 1-64 letters, digits, _ . or -'),
  timeout_ms: z.number().int().positive().optional(),
  retry: z
    .strictObject({
      max_attempts: z.number().int().min(1).max(20),
      backoff_ms: z.number().int().nonnegative().optional(),
    })
    .optional(),
};

const nodeSchema: z.ZodType<WorkflowNode> = z.lazy(() =>
  z.discriminatedUnion('kind', [
    z.strictObject({
      ...base,
      kind: z.literal('agent'),
      prompt: z.string().min(1),
      include_tools: z.array(z.string()).optional(),
      exclude_tools: z.array(z.string()).optional(),
    }),
    z.strictObject({
      ...base,
      kind: z.literal('tool'),
      tool: z.string().min(1),
      params: z.record(z.string(), z.unknown()).optional(),
    }),
    z.strictObject({ ...base, kind: z.literal('approval'), prompt: z.string().min(1) }),
    z.strictObject({
      ...base,
      kind: z.literal('gate'),
      body: nodeSchema.optional(),
      check: predicateSchema,
      repair: nodeSchema.optional(),
      max_repairs: z.number().int().min(0).max(10).optional(),
    }),
    z.strictObject({ ...base, kind: z.literal('sequence'), steps: z.array(nodeSchema).min(1) }),
    z.strictObject({ ...base, kind: z.literal('parallel'), branches: z.array(nodeSchema).min(1) }),
    z.strictObject({
      ...base,
      kind: z.literal('join'),
      from: z.array(z.string()).min(1),
      mode: z.enum(['object', 'concat']).optional(),
    }),
    z.strictObject({
      ...base,
      kind: z.literal('condition'),
      if: predicateSchema,
      then: nodeSchema,
      else: nodeSchema.optional(),
    }),
    z.strictObject({ ...base, kind: z.literal('fallback'), try: z.array(nodeSchema).min(1) }),
    z.strictObject({ ...base, kind: z.literal('workflow'), workflow: workflowSchema }),
  ]),
);

const budgetsSchema = z.strictObject({
  max_steps: z.number().int().nonnegative().optional(),
  max_tokens: z.number().int().nonnegative().optional(),
  max_cost_usd: z.number().nonnegative().optional(),
  max_duration_ms: z.number().int().nonnegative().optional(),
});

export const workflowSchema: z.ZodType<Workflow> = z.lazy(() =>
  z.strictObject({ name: z.string().optional(), root: nodeSchema, budgets: budgetsSchema.optional() }),
);

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

/**
 * Validates a workflow: its shape, unique node ids, and that every id a join, condition or gate names
 * exists. A bad workflow is an InvalidParamsError listing the problems.
 */
export function parseWorkflow(value: unknown): Workflow {
  const parsed = workflowSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => ({
      field: issue.path.join('.') || '(workflow)',
      message: issue.message,
    }));
    throw new InvalidParamsError(
      `Invalid workflow: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`,
      { problems },
    );
  }
  const workflow = parsed.data;
  const nodes = allNodes(workflow.root);
  const ids = new Set<string>();
  const problems: string[] = [];
  for (const node of nodes) {
    if (ids.has(node.id)) problems.push(`node id '${node.id}' is used more than once`);
    ids.add(node.id);
  }
  for (const node of nodes) {
    for (const ref of referencesOf(node)) {
      if (!ids.has(ref)) problems.push(`node '${node.id}' refers to unknown node '${ref}'`);
    }
  }
  if (problems.length) {
    throw new InvalidParamsError(`Invalid workflow: ${problems.join('; ')}`, { problems });
  }
  return workflow;
}

function referencesOf(node: WorkflowNode): string[] {
  if (node.kind === 'join') return node.from;
  if (node.kind === 'condition') return predicateRefs(node.if);
  if (node.kind === 'gate') return predicateRefs(node.check);
  return [];
}

function predicateRefs(predicate: Predicate): string[] {
  if ('all' in predicate) return predicate.all.flatMap(predicateRefs);
  if ('any' in predicate) return predicate.any.flatMap(predicateRefs);
  return [predicate.output_of];
}

/** The one-node workflow a plain run request becomes: an agent working on the prompt. */
export function agentWorkflow(): Workflow {
  return { root: { id: 'agent', kind: 'agent', prompt: '{{input.prompt}}' } };
}
