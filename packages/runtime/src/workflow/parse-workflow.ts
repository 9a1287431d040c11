import { InvalidParamsError } from '../errors/index.ts';
import { allNodes, type Predicate, type Workflow, type WorkflowNode } from './definition.ts';
import { graphProblems } from './graph-problems.ts';
import { workflowSchema } from './workflow-schema.ts';

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
    if (node.kind === 'gate' && !node.check && !node.commands && !node.reviewer) {
      problems.push(`gate '${node.id}' has nothing to check: give it check, commands or reviewer`);
    }
    if (node.kind === 'task_graph' && node.tasks) problems.push(...graphProblems(node.tasks));
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
  if (node.kind === 'gate' && node.check) return predicateRefs(node.check);
  return [];
}

function predicateRefs(predicate: Predicate): string[] {
  if ('all' in predicate) return predicate.all.flatMap(predicateRefs);
  if ('any' in predicate) return predicate.any.flatMap(predicateRefs);
  return [predicate.output_of];
}
