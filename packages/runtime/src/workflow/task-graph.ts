import { CancelledError, KeelError, toErrorObject } from '../errors/index.ts';
import type { JsonValue } from '../store/index.ts';
import { parsePlan, plannerPrompt } from './agent-answers.ts';
import type { GraphTask, WorkflowNode } from './definition.ts';
import { outputText, render } from './expressions.ts';
import { compareTaskIds } from './graph-problems.ts';
import type { NodeScope } from './node-scope.ts';
import type { NodeOf } from './scheduler-hooks.ts';
import type { NodeState } from './state.ts';
import { SuspendRun } from './suspend.ts';

/** One task's end, as the aggregate and the `tasks` artifact show it. */
interface TaskResult {
  id: string;
  capability: string;
  /** The specialist whose answer counts: the task's own, or the fallback. */
  specialist: string;
  status: 'succeeded' | 'failed' | 'skipped';
  output: string;
  /** Why the fallback took the task: no specialist for its capability, or how its own failed. */
  fallback_reason?: string;
  error?: string;
}

/**
 * Runs a task graph: the tasks given, or the ones a planner agent writes (saved, so a resumed run does not
 * plan again); each task by the specialist its capability names, or the fallback when none does or its
 * own fails; a task as soon as the tasks it depends on succeeded, up to `max_parallel` at once. Every task
 * is an agent node of its own (`<graph>.<task>`), checkpointed like any. The output is the results in
 * task-id order, the same whatever order they finished in; a `tasks` artifact keeps them as data.
 */
export async function runTaskGraph(
  node: NodeOf<'task_graph'>,
  nodeState: NodeState,
  scope: NodeScope,
  signal: AbortSignal,
): Promise<JsonValue> {
  const tasks =
    node.tasks ??
    (nodeState.tasks as GraphTask[] | undefined) ??
    (await plan(node, nodeState, scope, signal));
  const fallback = node.fallback ?? 'generic';
  const known = new Set(scope.hooks.specialists.map((each) => each.name));
  if (!known.has(fallback)) {
    throw new KeelError(
      'AGENT_ERROR',
      `Task graph '${node.id}': no specialist '${fallback}' to fall back on.`,
      {
        node_id: node.id,
      },
    );
  }
  const results = await runTasks(tasks, node.max_parallel ?? 4, (task, inputs) =>
    runTask(node, task, inputs, { known, fallback, scope, signal }),
  );
  const ordered = [...results.values()].sort((a, b) => compareTaskIds(a.id, b.id));
  const stepId = await scope.hooks.startStep(node.id, 'node', { tasks: ordered.length });
  await scope.hooks.saveArtifact({
    nodeId: node.id,
    stepId,
    name: `${node.id}-tasks.json`,
    kind: 'tasks',
    data: { graph: node.id, tasks: ordered as unknown as JsonValue },
  });
  const failed = ordered.filter((result) => result.status !== 'succeeded');
  if (failed.length) {
    const error = new KeelError(
      'AGENT_ERROR',
      `Task graph '${node.id}': ${failed.map((each) => `${each.id} ${each.status} (${each.error})`).join('; ')}`,
      { node_id: node.id, tasks: ordered as unknown as JsonValue },
    );
    await scope.hooks.finishStep(stepId, 'failed', { error });
    throw error;
  }
  const output = report(ordered);
  await scope.hooks.finishStep(stepId, 'succeeded');
  // A boundary like a tool node's: the aggregate (and its artifact) is not made again on resume.
  nodeState.status = 'succeeded';
  nodeState.output = output;
  await scope.hooks.checkpoint(stepId);
  return output;
}

/** Asks the planner for the graph and keeps it in the node's state. */
async function plan(
  node: NodeOf<'task_graph'>,
  nodeState: NodeState,
  scope: NodeScope,
  signal: AbortSignal,
): Promise<GraphTask[]> {
  const request = render(node.request ?? '{{input.prompt}}', scope.hooks.input, scope.state);
  const planner: WorkflowNode = {
    id: `${node.id}.planner`,
    kind: 'agent',
    specialist: 'planner',
    prompt: plannerPrompt(request, scope.hooks.specialists),
  };
  const tasks = parsePlan(outputText(await scope.execute(planner, signal)));
  nodeState.tasks = tasks as unknown as JsonValue;
  await scope.hooks.checkpoint(null);
  return tasks;
}

type TaskRunner = (task: GraphTask, inputs: TaskResult[]) => Promise<TaskResult>;

/** Starts each task once its dependencies succeeded (skips it when one did not), `limit` at a time. */
async function runTasks(
  tasks: GraphTask[],
  limit: number,
  run: TaskRunner,
): Promise<Map<string, TaskResult>> {
  const results = new Map<string, TaskResult>();
  const waiting = [...tasks].sort((a, b) => compareTaskIds(a.id, b.id));
  const active = new Map<string, Promise<void>>();
  let stop: unknown;
  while (waiting.length || active.size) {
    let skippedAny = false;
    for (const task of [...waiting]) {
      if (stop !== undefined || active.size >= limit) break;
      const inputs = (task.depends_on ?? []).map((id) => results.get(id));
      const blocker = inputs.find((each) => each && each.status !== 'succeeded');
      if (!blocker && inputs.some((each) => !each)) continue;
      waiting.splice(waiting.indexOf(task), 1);
      if (blocker) {
        results.set(task.id, skipped(task, blocker.id));
        skippedAny = true;
        continue;
      }
      const done = run(task, inputs as TaskResult[]).then(
        (result) => {
          results.set(task.id, result);
        },
        (error) => {
          stop ??= error;
        },
      );
      active.set(
        task.id,
        done.finally(() => active.delete(task.id)),
      );
    }
    // A skip may unblock (to be skipped in turn) a task listed before it: look again.
    if (!active.size) {
      if (skippedAny && stop === undefined) continue;
      break;
    }
    await Promise.race(active.values());
  }
  // A task waiting for a human (SuspendRun) or a cancelled run stops the graph once the others settled.
  if (stop !== undefined) throw stop;
  return results;
}

/** A task by its specialist, then by the fallback when that one is missing or fails. */
async function runTask(
  graph: NodeOf<'task_graph'>,
  task: GraphTask,
  inputs: TaskResult[],
  how: { known: Set<string>; fallback: string; scope: NodeScope; signal: AbortSignal },
): Promise<TaskResult> {
  const prompt = taskPrompt(task, inputs);
  const base = { id: task.id, capability: task.capability };
  let reason = `no specialist for capability '${task.capability}'`;
  if (how.known.has(task.capability)) {
    const own: WorkflowNode = {
      id: `${graph.id}.${task.id}`,
      kind: 'agent',
      specialist: task.capability,
      prompt,
    };
    try {
      const output = outputText(await how.scope.execute(own, how.signal));
      return { ...base, specialist: task.capability, status: 'succeeded', output };
    } catch (error) {
      if (stopsTheGraph(error, how.signal)) throw error;
      reason = `${task.capability} failed: ${toErrorObject(error).message}`;
    }
  }
  const fallback: WorkflowNode = {
    id: `${graph.id}.${task.id}.fallback`,
    kind: 'agent',
    specialist: how.fallback,
    prompt: `${prompt}\n\n(You take this task because ${reason}.)`,
  };
  try {
    const output = outputText(await how.scope.execute(fallback, how.signal));
    return { ...base, specialist: how.fallback, status: 'succeeded', output, fallback_reason: reason };
  } catch (error) {
    if (stopsTheGraph(error, how.signal)) throw error;
    const message = toErrorObject(error).message;
    return {
      ...base,
      specialist: how.fallback,
      status: 'failed',
      output: '',
      fallback_reason: reason,
      error: message,
    };
  }
}

function stopsTheGraph(error: unknown, signal: AbortSignal): boolean {
  return error instanceof SuspendRun || error instanceof CancelledError || signal.aborted;
}

/** A task's prompt: the task, then the results of the tasks it depends on, in task-id order. */
function taskPrompt(task: GraphTask, inputs: TaskResult[]): string {
  const sorted = [...inputs].sort((a, b) => compareTaskIds(a.id, b.id));
  return [
    task.task,
    ...(sorted.length ? ['', '# Results of the tasks this one builds on'] : []),
    ...sorted.flatMap((input) => ['', `## ${input.id} (${input.capability})`, input.output]),
  ].join('\n');
}

function skipped(task: GraphTask, blocker: string): TaskResult {
  return {
    id: task.id,
    capability: task.capability,
    specialist: task.capability,
    status: 'skipped',
    output: '',
    error: `task '${blocker}' it depends on did not succeed`,
  };
}

/** The aggregate: every task's answer under its id, in task-id order. */
function report(results: TaskResult[]): string {
  return results
    .map((result) => {
      const by = result.fallback_reason
        ? `${result.specialist}, as fallback: ${result.fallback_reason}`
        : result.specialist;
      return `## ${result.id} · ${result.capability} (${by})\n\n${result.output}`;
    })
    .join('\n\n');
}
