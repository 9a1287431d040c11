import {
  createWorkbenchClient,
  WorkbenchApiError,
  type WorkbenchClient,
  WorkbenchResponseError,
} from '@keel/workbench-client';
import { apiKey, reportUnauthorized } from './auth.ts';
import { watchedFetch } from './connection.ts';
import { ApiError, asApiError } from './errors.ts';
import type { ConversationCreate, ProjectUpdate, SkillCreate, SkillUpdate } from './library-types.ts';
import type {
  CommitMessageEdit,
  ConnectionTestInput,
  FollowUpInput,
  KnowledgeLayer,
  ProjectChecksUpdate,
  ProjectCreate,
  ProjectTrustUpdate,
  SettingsUpdate,
  TaskCreate,
  TodoInput,
  TodoPatch,
} from './types.ts';

// Typed by hand: this file is also type-checked by the repository's Node-only configuration.
const where = (globalThis as unknown as { location?: { origin: string } }).location;

/**
 * The workbench that served the page, through @keel/workbench-client: every answer checked against its
 * protocol schema. The key is read at every request (the prompt may set it after a 401), and a 401 (or a
 * WebSocket refused with 4001) opens the prompt.
 */
export const workbench: WorkbenchClient = createWorkbenchClient({
  baseUrl: where?.origin ?? 'http://127.0.0.1:8000',
  apiKey: apiKey,
  onUnauthorized: reportUnauthorized,
  // Through the connection's watch (the page's "service gone" banner); the global is read at each call.
  fetch: (url, init) => watchedFetch(url, init),
});

/**
 * What the page shows for a failed call, as the SPA's own `ApiError` (the words of `error-words.ts`): the
 * service's refusal as it came, an answer in no error shape as "The service answered <status>.", an answer
 * its schema does not describe as UNEXPECTED_ANSWER, a network failure as NETWORK_ERROR. An abort stays
 * what it was, for the caller to recognise.
 */
export function fromClientError(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  if (WorkbenchApiError.is(error)) {
    const status = error.status ?? 0;
    if (error.code === `HTTP_${status}`) {
      const said = /failed with (\d{3}(?: [^:]*)?):/.exec(error.message)?.[1]?.trim() ?? String(status);
      return new ApiError(status, { code: error.code, message: `The service answered ${said}.` });
    }
    return new ApiError(status, {
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
    });
  }
  if (WorkbenchResponseError.is(error)) {
    return new ApiError(0, {
      code: 'UNEXPECTED_ANSWER',
      message: `The workbench answered something this page does not understand (is the page older than the service? Reload it). ${error.message}`,
      details: { route: error.route },
    });
  }
  if (error instanceof Error && error.name === 'AbortError') return error;
  return asApiError(error);
}

/** Runs one call of the client: its failure becomes what `fromClientError` makes of it. */
async function run<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw fromClientError(error);
  }
}

const { settings, directories, projects, tasks, todos, skills, conversations, sessions } = workbench;

/** Every endpoint the app uses, by resource, in the shapes its pages read. */
export const api = {
  flow: () => run(workbench.flow()),
  settings: {
    get: () => run(settings.get()),
    update: (patch: SettingsUpdate) => run(settings.update(patch)),
    check: () => run(settings.check()),
    /** Calls `{base_url}/models` with the values given (the saved ones where absent). */
    testConnection: (input: ConnectionTestInput) => run(settings.testConnection(input)),
    /** Starts the saved MCP server of that name, lists its tools and stops it. */
    mcpHealth: (name: string) => run(settings.mcpHealth(name)),
  },
  directories: {
    /** One page of 2,000 entries from `offset`. */
    list: (path?: string, offset = 0) =>
      run(directories.list({ ...(path ? { path } : {}), ...(offset ? { offset } : {}) })),
  },
  projects: {
    list: () => run(projects.list()),
    get: (projectId: string) => run(projects.get(projectId)),
    create: (input: ProjectCreate) => run(projects.create(input)),
    update: (projectId: string, patch: ProjectUpdate & ProjectChecksUpdate & ProjectTrustUpdate) =>
      run(projects.update(projectId, patch)),
    remove: (projectId: string) => run(projects.remove(projectId)),
    init: (projectId: string, one?: { repository: string; layer: KnowledgeLayer }) =>
      run(projects.init(projectId, one ?? {})),
    knowledge: (projectId: string) => run(projects.knowledge(projectId)),
    repositoryConfig: (projectId: string) => run(projects.repositoryConfig(projectId)),
  },
  tasks: {
    list: (projectId?: string) => run(tasks.list(projectId ? { projectId } : {})),
    get: (taskId: string) => run(tasks.get(taskId)),
    create: (input: TaskCreate) => run(tasks.create(input)),
    remove: (taskId: string) => run(tasks.remove(taskId)),
    init: (taskId: string) => run(tasks.init(taskId)),
    confirmInit: (taskId: string) => run(tasks.confirmInit(taskId)),
    setup: (taskId: string) => run(tasks.setup(taskId)),
    plan: (taskId: string, message?: string) => run(tasks.plan(taskId, message ? { message } : {})),
    lockPlan: (taskId: string) => run(tasks.lockPlan(taskId)),
    todo: (taskId: string, message?: string) => run(tasks.todo(taskId, message ? { message } : {})),
    startCoding: (taskId: string) => run(tasks.startCoding(taskId)),
    runAll: (taskId: string) => run(tasks.runAll(taskId)),
    baseline: (taskId: string) => run(tasks.baseline(taskId)),
    /** A repository's preview in the task's workspace: 202 `starting`; its changes come on `task:{id}`. */
    startPreview: (taskId: string, repository: string) => run(tasks.startPreview(taskId, repository)),
    previews: (taskId: string) => run(tasks.previews(taskId)),
    /** The end of a preview's output and the seq of its last chunk. */
    previewLog: (taskId: string, repository: string) => run(tasks.previewLog(taskId, repository)),
    /** Answers the preview once it ended. */
    stopPreview: (taskId: string, repository: string) => run(tasks.stopPreview(taskId, repository)),
    diff: (taskId: string) => run(tasks.diff(taskId)),
    /** One file's patch, for a file past the task diff's 1 MiB cut. */
    fileDiff: (taskId: string, repository: string, path: string) =>
      run(tasks.fileDiff(taskId, { repository, path })),
    /** One of the task's images as its bytes (an `<img src>` could not send the key). */
    image: (taskId: string, index: number, signal?: AbortSignal) =>
      run(tasks.image(taskId, index, signal ? { signal } : {})),
    commitMessage: (taskId: string, message?: string) =>
      run(tasks.commitMessage(taskId, message ? { message } : {})),
    submitMr: (taskId: string, input: { title?: string; description?: string } = {}) =>
      run(tasks.submitMr(taskId, input)),
    /** Stage 05's reviewer again over the whole change (it runs by itself on entering review). */
    review: (taskId: string) => run(tasks.review(taskId)),
    dismissFinding: (taskId: string, findingId: string) => run(tasks.dismissFinding(taskId, findingId)),
    /** Findings, failed MR checks, MR comments or written todos become todos: the task goes back to CODING. */
    followUp: (taskId: string, input: FollowUpInput) => run(tasks.followUp(taskId, input)),
    mergeRequests: (taskId: string) => run(tasks.mergeRequests(taskId)),
    /** Reads every followed merge request now from GitHub or GitLab. */
    refreshMergeRequests: (taskId: string) => run(tasks.refreshMergeRequests(taskId)),
    /** Hand edits: plan.md (a new version), the todo list, the commit message and MR text. */
    savePlan: (taskId: string, content: string) => run(tasks.savePlan(taskId, content)),
    planVersions: async (taskId: string) => ({
      task_id: taskId,
      versions: await run(tasks.planVersions(taskId)),
    }),
    planDiff: (taskId: string, from: number, to: number) => run(tasks.planDiff(taskId, { from, to })),
    addTodo: (taskId: string, input: TodoInput) => run(tasks.addTodo(taskId, input)),
    editTodo: (taskId: string, todoId: string, patch: TodoPatch) =>
      run(tasks.editTodo(taskId, todoId, patch)),
    removeTodo: async (taskId: string, todoId: string) => ({
      todos: await run(tasks.removeTodo(taskId, todoId)),
    }),
    reorderTodos: async (taskId: string, todoIds: string[]) => ({
      todos: await run(tasks.reorderTodos(taskId, todoIds)),
    }),
    editCommitMessage: (taskId: string, edit: CommitMessageEdit) =>
      run(tasks.editCommitMessage(taskId, edit)),
    cancel: (taskId: string) => run(tasks.cancel(taskId)),
    reopen: (taskId: string) => run(tasks.reopen(taskId)),
  },
  todos: {
    execute: (todoId: string) => run(todos.execute(todoId)),
    skip: (todoId: string) => run(todos.skip(todoId)),
    diff: (todoId: string) => run(todos.diff(todoId)),
  },
  skills: {
    list: () => run(skills.list()),
    get: (skillId: string) => run(skills.get(skillId)),
    create: (input: SkillCreate) => run(skills.create(input)),
    update: (skillId: string, patch: SkillUpdate) => run(skills.update(skillId, patch)),
    remove: (skillId: string) => run(skills.remove(skillId)),
    link: (skillId: string, projectId: string, linked: boolean) =>
      run(skills.link(skillId, projectId, linked)),
  },
  conversations: {
    list: () => run(conversations.list()),
    get: (conversationId: string) => run(conversations.get(conversationId)),
    create: (input: ConversationCreate) => run(conversations.create(input)),
    remove: (conversationId: string) => run(conversations.remove(conversationId)),
    init: (conversationId: string) => run(conversations.init(conversationId)),
  },
  sessions: {
    status: (sessionId: string) => run(sessions.status(sessionId)),
    logs: (sessionId: string, after = 0, limit = 1000) => run(sessions.logs(sessionId, { after, limit })),
    /** Stops the session's running work; answers once it ended (409 SESSION_NOT_RUNNING when nothing ran). */
    stop: (sessionId: string) => run(sessions.stop(sessionId)),
    /** A message to the session: a turn now, or queued until the running one ends. */
    send: (sessionId: string, content: string) => run(sessions.send(sessionId, content)),
    queue: (sessionId: string) => run(sessions.queue(sessionId)),
    /** Takes a queued message out: it never runs. */
    unqueue: (sessionId: string, messageId: string) => run(sessions.unqueue(sessionId, messageId)),
  },
};
