import type { GraphTask } from './definition.ts';

/**
 * What is wrong with a task graph beyond its shape: duplicate ids, a dependency on a task that does not
 * exist, and cycles (a task that waits, however indirectly, for itself would never start).
 */
export function graphProblems(tasks: readonly GraphTask[]): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const task of tasks) {
    if (ids.has(task.id)) problems.push(`task id '${task.id}' is used more than once`);
    ids.add(task.id);
  }
  for (const task of tasks) {
    for (const dependency of task.depends_on ?? []) {
      if (!ids.has(dependency)) problems.push(`task '${task.id}' depends on unknown task '${dependency}'`);
    }
  }
  if (problems.length) return problems;
  const cycle = findCycle(tasks);
  if (cycle) problems.push(`tasks depend on each other in a cycle: ${cycle.join(' -> ')}`);
  return problems;
}

/** One cycle of the graph as the ids along it (the first repeated at the end), or undefined. */
function findCycle(tasks: readonly GraphTask[]): string[] | undefined {
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (done.has(id)) return undefined;
    const at = path.indexOf(id);
    if (at >= 0) return [...path.slice(at), id];
    path.push(id);
    for (const dependency of byId.get(id)?.depends_on ?? []) {
      const cycle = visit(dependency);
      if (cycle) return cycle;
    }
    path.pop();
    done.add(id);
    return undefined;
  };
  for (const task of tasks) {
    const cycle = visit(task.id);
    if (cycle) return cycle;
  }
  return undefined;
}

/** Orders task ids the same way on every machine: numbers inside ids count as numbers (t2 before t10). */
export function compareTaskIds(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true }) || (a < b ? -1 : a > b ? 1 : 0);
}
