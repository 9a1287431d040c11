// The tasks' face. A stage's module (also one registered from outside `stages/`) needs only what is here:
// `moveTask` (the hand-off), its session (`stageSession`, `createTaskSession`, `reserveSession`,
// `reservedTurn`), the task's files and view (README: "Adding a stage").
export { branchNameProblem, defaultBranch } from './branch-name.ts';
export {
  createTaskSession,
  reserveSession,
  stageSession,
  type TaskDeps,
  TaskLocks,
  taskRunner,
} from './deps.ts';
export { editRoutes } from './edit-routes.ts';
export { flowRoutes } from './flow-routes.ts';
export { afterSetup, moveTask } from './hand-off.ts';
export { MergeRequestFollower } from './merge-request-follower.ts';
export { htmlToText } from './prd-links.ts';
export { taskRoutes } from './routes.ts';
export { noteTaskError, reservedTurn, startAutomatically, taskOfSucceededTurn } from './stage-errors.ts';
export {
  defaultFlow,
  defaultStages,
  type StageEntry,
  type StageModule,
  withStage,
} from './stages/index.ts';
export { initWaitingTasks } from './stages/init/init-stage.ts';
export { messageTurnRoute, withSession } from './stages/route-helpers.ts';
export { parseTodoList } from './stages/todos/todo-list.ts';
export { buildFlow, type Flow, type FlowState, type Move, type TaskState, taskStates } from './states.ts';
export { readIfExists, writeTaskFile } from './task-files.ts';
export { deleteProjectTasks, removeOrphanTaskDirs, viewTask } from './task-service.ts';
export { Tasks } from './tasks.ts';
export type {
  FollowedMergeRequest,
  PlanVersion,
  ReviewFinding,
  Task,
  TaskImage,
  TaskImageInfo,
  TaskReview,
  Todo,
  TodoOrigin,
  TodoStatus,
  Workspace,
} from './types.ts';

import { defaultFlow } from './stages/index.ts';

/** The default registry's table of moves, stages and checks (the flow a workbench runs unless given stages). */
export const { moves, stages } = defaultFlow;
export const allowedActions = defaultFlow.allowedActions;
export const nextState = defaultFlow.nextState;
export const canMove = defaultFlow.canMove;
