import { z } from 'zod';
import type { Predicate, Workflow, WorkflowNode } from './definition.ts';

// The shapes of definition.ts as zod schemas: what parseWorkflow accepts (strict, so a typo is an error).

/** More tasks than this is a plan too big to follow (and to show). */
export const maxGraphTasks = 50;

export const graphTaskSchema = z.strictObject({
  id: z.string().regex(/^[\w-]{1,32}$/, 'task ids are 1-32 letters, digits, _ or -'),
  capability: z.string().regex(/^[\w-]{1,32}$/, 'capabilities are 1-32 letters, digits, _ or -'),
  task: z.string().min(1).max(20_000),
  depends_on: z.array(z.string()).max(maxGraphTasks).optional(),
});

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
      specialist: z.string().min(1).optional(),
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
      check: predicateSchema.optional(),
      commands: z.array(z.string().min(1)).min(1).optional(),
      reviewer: z
        .strictObject({ prompt: z.string().min(1).optional(), specialist: z.string().min(1).optional() })
        .optional(),
      repair: nodeSchema.optional(),
      max_repairs: z.number().int().min(0).max(10).optional(),
    }),
    z.strictObject({
      ...base,
      kind: z.literal('task_graph'),
      tasks: z.array(graphTaskSchema).min(1).max(maxGraphTasks).optional(),
      request: z.string().min(1).optional(),
      fallback: z.string().min(1).optional(),
      max_parallel: z.number().int().min(1).max(16).optional(),
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
