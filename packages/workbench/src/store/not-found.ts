import { WorkbenchError } from '../errors.ts';

/** The 404 of each record kind, worded once for every dialect (the contract wants the same answers). */
export const recordNotFound = {
  project: (id: string) => new WorkbenchError('PROJECT_NOT_FOUND', `No project '${id}'.`, { project_id: id }),
  task: (id: string) => new WorkbenchError('TASK_NOT_FOUND', `No task '${id}'.`, { task_id: id }),
  todo: (id: string) => new WorkbenchError('TODO_NOT_FOUND', `No todo '${id}'.`, { todo_id: id }),
  session: (id: string) => new WorkbenchError('SESSION_NOT_FOUND', `No session '${id}'.`, { session_id: id }),
  skill: (id: string) => new WorkbenchError('SKILL_NOT_FOUND', `No skill '${id}'.`, { skill_id: id }),
  conversation: (id: string) =>
    new WorkbenchError('CONVERSATION_NOT_FOUND', `No conversation '${id}'.`, { conversation_id: id }),
  planVersion: (taskId: string, version: number) =>
    new WorkbenchError('PLAN_VERSION_NOT_FOUND', `The plan has no version ${version}.`, {
      task_id: taskId,
      version,
    }),
};

/** A new skill's name in use already. */
export function skillExists(name: string): WorkbenchError {
  return new WorkbenchError('SKILL_EXISTS', `A skill named '${name}' exists already.`, { name });
}
