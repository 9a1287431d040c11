export { branchNameProblem, defaultBranch } from './branch-name.ts';
export { type TaskDeps, TaskLocks } from './deps.ts';
export { editRoutes } from './edit-routes.ts';
export { flowRoutes } from './flow-routes.ts';
export { MergeRequestFollower } from './merge-request-follower.ts';
export { htmlToText } from './prd-links.ts';
export { taskRoutes } from './routes.ts';
export { defaultFlow, defaultStages, type StageModule } from './stages/index.ts';
export { initWaitingTasks } from './stages/init/init-stage.ts';
export { parseTodoList } from './stages/todos/todo-list.ts';
export { buildFlow, type Flow, type FlowState, type Move, type TaskState, taskStates } from './states.ts';
export { deleteProjectTasks, removeOrphanTaskDirs } from './task-service.ts';
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
