import type { Reservation } from '../sessions/index.ts';
import type { TaskDeps } from './deps.ts';
import type { FlowState } from './states.ts';
import type { Task } from './types.ts';

/**
 * Moves the task by `action` (checked against the table of moves) and, when the move takes it from one
 * registered stage into another, runs the entered stage's `onEnter`: the one place where a stage hands a
 * task to the next, so that no stage imports another (cancel and re-open, to and from CANCELLED, enter
 * nothing). `held`: a session the leaving stage reserved for the entered one (released here when the move
 * is refused or no stage takes it). Answers the task as it is after.
 */
export async function moveTask(
  deps: TaskDeps,
  taskId: string,
  action: string,
  held?: Reservation,
): Promise<Task> {
  let moved: { task: Task; from: FlowState };
  try {
    moved = await deps.store.moveFrom(taskId, action);
  } catch (error) {
    held?.release();
    throw error;
  }
  const { task, from } = moved;
  const left = deps.flow.stageOf(from);
  const entered = deps.flow.stageOf(task.state);
  if (!left || !entered?.onEnter || entered === left) {
    held?.release();
    return task;
  }
  await entered.onEnter(deps, task, { action, from, ...(held ? { held } : {}) });
  return await deps.store.get(taskId);
}

/** After the repositories' setup ran again: the stage the task is in reacts (04 takes the baseline again). */
export async function afterSetup(deps: TaskDeps, taskId: string): Promise<void> {
  const task = await deps.store.get(taskId);
  await deps.flow.stageOf(task.state)?.onSetup?.(deps, task);
}
