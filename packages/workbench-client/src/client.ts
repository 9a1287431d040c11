import type {
  ConnectionTest,
  Conversation,
  DirectoryListing,
  FileDiff,
  Flow,
  Knowledge,
  LogPage,
  McpHealth,
  PlanDiff,
  PlanVersion,
  Preview,
  PreviewLog,
  Project,
  ProjectRepositoryConfig,
  ReviewFinding,
  SentMessage,
  Session,
  SessionQueue,
  Settings,
  SettingsCheck,
  Skill,
  SkillWithContent,
  Task,
  TaskDiff,
  Todo,
  TodoDiff,
} from '@keel/protocol/workbench';
import * as wire from '@keel/protocol/workbench';
import { z } from 'zod';
import type { ReconnectOptions, WebSocketFactory } from './channel.ts';
import { type ApiKey, createCall, type Fetch, segment as id, keyOf } from './http.ts';
import type {
  CommitMessageEdit,
  ConnectionTestInput,
  ConversationCreate,
  ConversationUpdate,
  FollowUp,
  LogQuery,
  ProjectCreate,
  ProjectInit,
  ProjectUpdate,
  SettingsUpdate,
  SkillCreate,
  SkillUpdate,
  StageMessage,
  SubmitMergeRequest,
  TaskCreate,
  TaskUpdate,
  TodoCreate,
  TodoUpdate,
} from './requests.ts';
import {
  type SubscribeOptions,
  sessionEnded,
  subscribeSession,
  type WaitOptions,
  waitForSession,
} from './sessions.ts';
import { type SocketOptions, WorkbenchSocket } from './socket.ts';
import { type WatchOptions, waitForTask, watchTask } from './tasks.ts';

// Answers the protocol has schemas for but no named types (yet).
export type TaskWithSession = z.output<typeof wire.taskWithSession>;
export type TodoWithSession = z.output<typeof wire.todoWithSession>;
export type TaskWithTodos = z.output<typeof wire.taskWithTodos>;
export type TodoWithList = z.output<typeof wire.todoWithList>;
export type PlanSaved = z.output<typeof wire.planSaved>;
export type PlanVersionList = z.output<typeof wire.planVersionList>;
export type ProjectInitStarted = z.output<typeof wire.projectInitStarted>;
export type TaskMergeRequests = z.output<typeof wire.taskMergeRequests>;
export type ConversationStarted = z.output<typeof wire.conversationStarted>;

export interface WorkbenchClientOptions {
  /** Where the workbench answers, e.g. `http://127.0.0.1:8000`. */
  baseUrl: string;
  /**
   * `WORKBENCH_AUTH_API_KEY`: sent as `Authorization: Bearer` over REST, as `?token=` on the WebSocket. A
   * function is read at every request and connection (a page that asks for the key after a 401).
   */
  apiKey?: ApiKey;
  /** Hears every refused key (a 401, a WebSocket closed with 4001) before the call rejects. */
  onUnauthorized?: () => void;
  /** Default: the global `fetch`. */
  fetch?: Fetch;
  /** Default: the global `WebSocket`. Also a seam for tests (wrap it to drop connections). */
  webSocket?: WebSocketFactory;
  /** How a dropped WebSocket connection is tried again. */
  reconnect?: ReconnectOptions;
}

/** A 204's answer: nothing. */
const noContent = z.null().transform(() => undefined);

/** A typed client of keel-workbench: every answer checked against its `@keel/protocol/workbench` schema. */
export function createWorkbenchClient(options: WorkbenchClientOptions) {
  const fetcher: Fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const { call, blob } = createCall({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    fetch: fetcher,
    onUnauthorized: options.onUnauthorized,
  });
  const wsUrl = () => {
    const url = new URL('/api/ws', options.baseUrl.replace(/^http/, 'ws'));
    const key = keyOf(options.apiKey);
    if (key) url.searchParams.set('token', key);
    return url.toString();
  };
  const follow = {
    url: wsUrl,
    onUnauthorized: options.onUnauthorized,
    connect: options.webSocket ?? ((url: string) => new WebSocket(url)),
    reconnect: {
      initialDelayMs: options.reconnect?.initialDelayMs ?? 250,
      maxDelayMs: options.reconnect?.maxDelayMs ?? 5000,
      maxAttempts: options.reconnect?.maxAttempts ?? 10,
    },
  };
  const getTask = (taskId: string): Promise<Task> => call('GET', `/api/tasks/${id(taskId)}`, wire.task);

  const settings = {
    get: (): Promise<Settings> => call('GET', '/api/settings', wire.settings),
    /** Answers the settings with `cleared_secrets` (and `message` when a URL change removed a secret). */
    update: (body: SettingsUpdate): Promise<Settings> =>
      call('PUT', '/api/settings', wire.settings, { body }),
    check: (): Promise<SettingsCheck> => call('GET', '/api/settings/check', wire.settingsCheck),
    testConnection: (body: ConnectionTestInput = {}): Promise<ConnectionTest> =>
      call('POST', '/api/settings/test-connection', wire.connectionTest, { body }),
    /** Starts the saved MCP server of that name as the runners would, lists its tools and stops it. */
    mcpHealth: (name: string): Promise<McpHealth> =>
      call('POST', `/api/settings/mcp-servers/${id(name)}/health`, wire.mcpHealth),
  };

  const directories = {
    /** One page of a directory of the workbench's machine (`truncated`: ask again from `offset`). */
    list: (query: { path?: string; offset?: number; hidden?: boolean } = {}): Promise<DirectoryListing> =>
      call('GET', '/api/directories', wire.directoryListing, {
        query: { ...query, hidden: query.hidden === undefined ? undefined : String(query.hidden) },
      }),
  };

  const skills = {
    list: async (query: { projectId?: string } = {}): Promise<Skill[]> =>
      (await call('GET', '/api/skills', wire.skillList, { query: { project_id: query.projectId } })).skills,
    get: (skillId: string): Promise<SkillWithContent> =>
      call('GET', `/api/skills/${id(skillId)}`, wire.skillWithContent),
    /** 201. */
    create: (body: SkillCreate): Promise<SkillWithContent> =>
      call('POST', '/api/skills', wire.skillWithContent, { body }),
    update: (skillId: string, body: SkillUpdate): Promise<SkillWithContent> =>
      call('PUT', `/api/skills/${id(skillId)}`, wire.skillWithContent, { body }),
    remove: (skillId: string): Promise<void> => call('DELETE', `/api/skills/${id(skillId)}`, noContent),
    /** Links the skill to a project (`linked: true`) or unlinks it. */
    link: (skillId: string, projectId: string, linked: boolean): Promise<SkillWithContent> =>
      call('POST', `/api/skills/${id(skillId)}/link`, wire.skillWithContent, {
        body: { project_id: projectId, linked },
      }),
  };

  const conversations = {
    list: async (query: { projectId?: string } = {}): Promise<Conversation[]> =>
      (
        await call('GET', '/api/conversations', wire.conversationList, {
          query: { project_id: query.projectId },
        })
      ).conversations,
    get: (conversationId: string): Promise<Conversation> =>
      call('GET', `/api/conversations/${id(conversationId)}`, wire.conversation),
    /** 201. */
    create: (body: ConversationCreate): Promise<Conversation> =>
      call('POST', '/api/conversations', wire.conversation, { body }),
    update: (conversationId: string, body: ConversationUpdate): Promise<Conversation> =>
      call('PUT', `/api/conversations/${id(conversationId)}`, wire.conversation, { body }),
    remove: (conversationId: string): Promise<void> =>
      call('DELETE', `/api/conversations/${id(conversationId)}`, noContent),
    /** 201: opens its session (with the project's knowledge); chat in it with `sessions.send`. */
    init: (conversationId: string): Promise<ConversationStarted> =>
      call('POST', `/api/conversations/${id(conversationId)}/init`, wire.conversationStarted),
  };

  const projects = {
    list: async (): Promise<Project[]> => (await call('GET', '/api/projects', wire.projectList)).projects,
    /** 201; its knowledge generation starts by itself. */
    create: (body: ProjectCreate): Promise<Project> => call('POST', '/api/projects', wire.project, { body }),
    get: (projectId: string): Promise<Project> => call('GET', `/api/projects/${id(projectId)}`, wire.project),
    update: (projectId: string, body: ProjectUpdate): Promise<Project> =>
      call('PUT', `/api/projects/${id(projectId)}`, wire.project, { body }),
    remove: (projectId: string): Promise<void> => call('DELETE', `/api/projects/${id(projectId)}`, noContent),
    /** 202: every layer again, or one `{repository, layer}`. */
    init: (projectId: string, body: ProjectInit = {}): Promise<ProjectInitStarted> =>
      call('POST', `/api/projects/${id(projectId)}/init`, wire.projectInitStarted, { body }),
    knowledge: (projectId: string): Promise<Knowledge> =>
      call('GET', `/api/projects/${id(projectId)}/knowledge`, wire.knowledge),
    repositoryConfig: (projectId: string): Promise<ProjectRepositoryConfig> =>
      call('GET', `/api/projects/${id(projectId)}/repository-config`, wire.projectRepositoryConfig),
  };

  const task = (taskId: string, action: string) => `/api/tasks/${id(taskId)}/${action}`;
  const tasks = {
    list: async (query: { projectId?: string } = {}): Promise<Task[]> =>
      (await call('GET', '/api/tasks', wire.taskList, { query: { project_id: query.projectId } })).tasks,
    /** 201; its initialization starts by itself once the project is READY. */
    create: (body: TaskCreate): Promise<Task> => call('POST', '/api/tasks', wire.task, { body }),
    get: getTask,
    update: (taskId: string, body: TaskUpdate): Promise<Task> =>
      call('PUT', `/api/tasks/${id(taskId)}`, wire.task, { body }),
    /** 204 once its running work stopped. */
    remove: (taskId: string): Promise<void> => call('DELETE', `/api/tasks/${id(taskId)}`, noContent),
    /** 01 (202): clone, skills, knowledge; again: retries the steps not done. */
    init: (taskId: string): Promise<Task> => call('POST', task(taskId, 'init'), wire.task),
    /** 01 → 02: the first plan draft starts (`plan_session_id`). */
    confirmInit: (taskId: string): Promise<Task> => call('POST', task(taskId, 'confirm-init'), wire.task),
    /** The repositories' setup steps again in the task's workspaces (202), once init is done. */
    setup: (taskId: string): Promise<Task> => call('POST', task(taskId, 'setup'), wire.task),
    /** 02 (202): drafts plan.md, or refines it with `message`. */
    plan: (taskId: string, body: StageMessage = {}): Promise<TaskWithSession> =>
      call('POST', task(taskId, 'plan'), wire.taskWithSession, { body }),
    /** plan.md saved by hand (PLANNING, plan session idle). */
    savePlan: (taskId: string, content: string): Promise<PlanSaved> =>
      call('PUT', task(taskId, 'plan'), wire.planSaved, { body: { content } }),
    planVersions: async (taskId: string): Promise<PlanVersion[]> =>
      (await call('GET', task(taskId, 'plan/versions'), wire.planVersionList)).versions,
    planVersion: (taskId: string, version: number): Promise<PlanVersion> =>
      call('GET', task(taskId, `plan/versions/${version}`), wire.planVersion),
    planDiff: (taskId: string, query: { from?: number; to?: number } = {}): Promise<PlanDiff> =>
      call('GET', task(taskId, 'plan/diff'), wire.planDiff, { query }),
    /** 02 → 03 (202): the todo list is generated in the plan session. */
    lockPlan: (taskId: string): Promise<TaskWithSession> =>
      call('POST', task(taskId, 'lock-plan'), wire.taskWithSession),
    /** 03 (202): the todo list again, or adjusted by `message`. */
    todo: (taskId: string, body: StageMessage = {}): Promise<TaskWithSession> =>
      call('POST', task(taskId, 'todo'), wire.taskWithSession, { body }),
    todos: async (taskId: string): Promise<Todo[]> =>
      (await call('GET', task(taskId, 'todos'), wire.todoList)).todos,
    addTodo: (taskId: string, body: TodoCreate): Promise<TodoWithList> =>
      call('POST', task(taskId, 'todos'), wire.todoWithList, { body }),
    editTodo: (taskId: string, todoId: string, body: TodoUpdate): Promise<TodoWithList> =>
      call('PATCH', task(taskId, `todos/${id(todoId)}`), wire.todoWithList, { body }),
    removeTodo: async (taskId: string, todoId: string): Promise<Todo[]> =>
      (await call('DELETE', task(taskId, `todos/${id(todoId)}`), wire.todoList)).todos,
    reorderTodos: async (taskId: string, todoIds: string[]): Promise<Todo[]> =>
      (await call('PUT', task(taskId, 'todos/order'), wire.todoList, { body: { todo_ids: todoIds } })).todos,
    /** 03 → 04. */
    startCoding: (taskId: string): Promise<Task> => call('POST', task(taskId, 'start-coding'), wire.task),
    /** 04 (202): the remaining todos in order, stopping at a failure. */
    runAll: (taskId: string): Promise<Task> => call('POST', task(taskId, 'run-all'), wire.task),
    /** 04 (202): the repositories' checks again on the workspace, as the task's `baseline`. */
    baseline: (taskId: string): Promise<Task> => call('POST', task(taskId, 'baseline'), wire.task),
    /**
     * Starts the repository's preview (the project's `preview` command) in the task's workspace, sandboxed
     * with the host's network, on a free loopback port given as `PORT` (202, `starting`; `running` once the
     * port answers, told on `task:<id>`: `watch` with `onPreview`).
     */
    startPreview: (taskId: string, repository: string): Promise<Preview> =>
      call('POST', task(taskId, 'previews'), wire.preview, { body: { repository } }),
    /** The task's previews, the ended ones too (until started again or the task is deleted). */
    previews: async (taskId: string): Promise<Preview[]> =>
      (await call('GET', task(taskId, 'previews'), wire.previewList)).previews,
    /** The end of a preview's output and the seq of its last chunk (later ones come as `onPreviewLog`). */
    previewLog: (taskId: string, repository: string): Promise<PreviewLog> =>
      call('GET', task(taskId, `previews/${id(repository)}/log`), wire.previewLog),
    /** Stops the preview and everything it started; answers it once it ended (`stopped`). */
    stopPreview: (taskId: string, repository: string): Promise<Preview> =>
      call('DELETE', task(taskId, `previews/${id(repository)}`), wire.preview),
    /** 05: every repository, base commit..working tree. */
    diff: (taskId: string): Promise<TaskDiff> => call('GET', task(taskId, 'diff'), wire.taskDiff),
    fileDiff: (taskId: string, query: { repository: string; path: string }): Promise<FileDiff> =>
      call('GET', task(taskId, 'diff/file'), wire.fileDiff, { query }),
    /** One of the task's images (by its place in `images`, from 0) as its bytes. */
    image: (taskId: string, index: number, request: { signal?: AbortSignal } = {}): Promise<Blob> =>
      blob('GET', task(taskId, `images/${index}`), request),
    /** 05 (202): the reviewer again. */
    review: (taskId: string): Promise<TaskWithSession> =>
      call('POST', task(taskId, 'review'), wire.taskWithSession),
    dismissFinding: (taskId: string, findingId: string): Promise<ReviewFinding> =>
      call('POST', task(taskId, `findings/${id(findingId)}/dismiss`), wire.reviewFinding),
    /** 05 (202): the commit message again, or adjusted by `message`. */
    commitMessage: (taskId: string, body: StageMessage = {}): Promise<TaskWithSession> =>
      call('POST', task(taskId, 'commit-message'), wire.taskWithSession, { body }),
    editCommitMessage: (taskId: string, body: CommitMessageEdit): Promise<Task> =>
      call('PUT', task(taskId, 'commit-message'), wire.task, { body }),
    /** 05 → DONE: commit, push and open the merge request per changed repository (`results`). */
    submitMr: (taskId: string, body: SubmitMergeRequest = {}): Promise<Task> =>
      call('POST', task(taskId, 'submit-mr'), wire.task, { body }),
    mergeRequests: (taskId: string): Promise<TaskMergeRequests> =>
      call('GET', task(taskId, 'merge-requests'), wire.taskMergeRequests),
    refreshMergeRequests: (taskId: string): Promise<TaskMergeRequests> =>
      call('POST', task(taskId, 'merge-requests/refresh'), wire.taskMergeRequests),
    /** REVIEWING or DONE → CODING: findings, merge-request items or written todos become todos. */
    followUp: (taskId: string, body: FollowUp): Promise<TaskWithTodos> =>
      call('POST', task(taskId, 'follow-up'), wire.taskWithTodos, { body }),
    cancel: (taskId: string): Promise<Task> => call('POST', task(taskId, 'cancel'), wire.task),
    reopen: (taskId: string): Promise<Task> => call('POST', task(taskId, 'reopen'), wire.task),
    /** Follows `task:<id>` (state, review, merge requests, error; previews) until `signal` aborts. */
    watch: (taskId: string, watch: WatchOptions): Promise<void> => watchTask(follow, taskId, watch),
    /** The whole task once `until` accepts it, read again on every change the WebSocket announces. */
    waitFor: (
      taskId: string,
      until: (task: Task) => boolean,
      wait: { signal?: AbortSignal } = {},
    ): Promise<Task> => waitForTask(follow, taskId, getTask, until, wait),
  };

  const todos = {
    get: (todoId: string): Promise<Todo> => call('GET', `/api/todos/${id(todoId)}`, wire.todo),
    /** 04 (202): one todo in its own session, strictly in order; a failed one is retried. */
    execute: (todoId: string): Promise<TodoWithSession> =>
      call('POST', `/api/todos/${id(todoId)}/execute`, wire.todoWithSession),
    skip: (todoId: string): Promise<Todo> => call('POST', `/api/todos/${id(todoId)}/skip`, wire.todo),
    diff: (todoId: string): Promise<TodoDiff> => call('GET', `/api/todos/${id(todoId)}/diff`, wire.todoDiff),
  };

  const session = (sessionId: string, action: string) => `/api/sessions/${id(sessionId)}/${action}`;
  const sessions = {
    status: (sessionId: string): Promise<Session> => call('GET', session(sessionId, 'status'), wire.session),
    /** A page of the log: `entries` after `after`, `next_cursor` the next page's `after`. */
    logs: (sessionId: string, query: LogQuery = {}): Promise<LogPage> =>
      call('GET', session(sessionId, 'logs'), wire.logPage, { query: { ...query } }),
    /** A chat message: a turn now (`queued: false`) or queued behind the running work. */
    send: (sessionId: string, content: string): Promise<SentMessage> =>
      call('POST', session(sessionId, 'messages'), wire.sentMessage, { body: { content } }),
    /** Stops the running work; answers once it ended. */
    stop: (sessionId: string): Promise<Session> => call('POST', session(sessionId, 'stop'), wire.session),
    queue: (sessionId: string): Promise<SessionQueue> =>
      call('GET', session(sessionId, 'queue'), wire.sessionQueue),
    unqueue: (sessionId: string, messageId: string): Promise<SessionQueue> =>
      call('DELETE', session(sessionId, `queue/${id(messageId)}`), wire.sessionQueue),
    /**
     * The session's log (replayed after `after`, then live) and status over `WS /api/ws`, until `signal`
     * aborts: each entry once, in order, across dropped connections.
     */
    subscribe: (sessionId: string, subscribe: SubscribeOptions = {}): Promise<void> =>
      subscribeSession(follow, sessionId, subscribe),
    /** The first status `until` accepts (default: the work ended and nothing holds the session). */
    waitFor: (
      sessionId: string,
      until: (session: Session) => boolean = sessionEnded,
      wait: WaitOptions = {},
    ): Promise<Session> => waitForSession(follow, sessionId, until, wait),
  };

  return {
    settings,
    directories,
    skills,
    conversations,
    projects,
    tasks,
    todos,
    sessions,
    /** `GET /api/flow`: the five stages, every state and the table of moves. */
    flow: (): Promise<Flow> => call('GET', '/api/flow', wire.flow),
    /**
     * One multiplexed `WS /api/ws` connection for following many sessions and tasks at once (an app's one
     * socket): it connects on the first subscription, pings, and resubscribes each channel (a session's from
     * its cursor) after a drop. `sessions.subscribe` and `tasks.watch` are the simpler ways to follow one.
     */
    socket: (socket: Omit<SocketOptions, 'onUnauthorized'> = {}): WorkbenchSocket =>
      new WorkbenchSocket(wsUrl, {
        ...(options.webSocket ? { create: options.webSocket } : {}),
        ...(options.onUnauthorized ? { onUnauthorized: options.onUnauthorized } : {}),
        ...socket,
      }),
  };
}

export type WorkbenchClient = ReturnType<typeof createWorkbenchClient>;
