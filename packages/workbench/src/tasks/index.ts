export { branchNameProblem, defaultBranch } from './branch-name.ts';
export { type TaskDeps, TaskLocks } from './deps.ts';
export { editRoutes } from './edit-routes.ts';
export { flowRoutes } from './flow-routes.ts';
export { initWaitingTasks } from './init-stage.ts';
export { MergeRequestFollower } from './merge-request-follower.ts';
export { planTurnEnded } from './plan-stage.ts';
export { htmlToText } from './prd-links.ts';
export { reviewRoutes } from './review-routes.ts';
export { reviewTurnEnded } from './review-stage.ts';
export { taskRoutes } from './routes.ts';
export {
  allowedActions,
  canMove,
  type Move,
  moves,
  nextState,
  stages,
  type TaskState,
  taskStates,
} from './states.ts';
export { deleteProjectTasks, removeOrphanTaskDirs } from './task-service.ts';
export { TaskStore } from './task-store.ts';
export { parseTodoList } from './todo-list.ts';
export type {
  FollowedMergeRequest,
  ReviewFinding,
  Task,
  TaskReview,
  Todo,
  TodoOrigin,
  TodoStatus,
} from './types.ts';
