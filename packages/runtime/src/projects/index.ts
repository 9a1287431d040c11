// Projects and development tasks of the web API (`/api/projects`, `/api/tasks`), as the SDK offers them.
export type {
  ProjectChatMessage,
  ProjectDeps,
  ProjectRunRequest,
  StartOptions,
  StartRun,
} from './project-deps.ts';
export { guideFileName } from './project-guide.ts';
export type {
  FieldIssue,
  NewProjectInput,
  NewTaskInput,
  ProjectUpdateInput,
  TaskUpdateInput,
} from './project-input.ts';
export {
  invalidFields,
  newProjectSchema,
  newTaskSchema,
  projectUpdateSchema,
  taskUpdateSchema,
} from './project-input.ts';
export type { ProjectCallOptions } from './projects-api.ts';
export { ProjectsApi } from './projects-api.ts';
export { TasksApi } from './tasks-api.ts';
