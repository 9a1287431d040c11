import type {
  Conversation,
  ConversationCreate,
  ProjectUpdate,
  Skill,
  SkillCreate,
  SkillUpdate,
  SkillWithContent,
} from './library-types.ts';
import { request } from './request.ts';
import type {
  CommitMessageEdit,
  ConnectionTest,
  ConnectionTestInput,
  DirectoryListing,
  FileDiff,
  Flow,
  FollowedMergeRequest,
  FollowUpInput,
  Knowledge,
  LogPage,
  McpHealth,
  PlanDiff,
  PlanVersion,
  Project,
  ProjectChecksUpdate,
  ProjectCreate,
  ProjectRepositoryConfig,
  ProjectTrustUpdate,
  QueuedMessage,
  ReviewFinding,
  SentMessage,
  Session,
  Settings,
  SettingsCheck,
  SettingsUpdate,
  Task,
  TaskCreate,
  TaskDiff,
  Todo,
  TodoDiff,
  TodoInput,
  TodoPatch,
} from './types.ts';

const id = encodeURIComponent;

/** A list endpoint answers `{<name>: [...]}`; a bare array is taken as well. */
async function list<T>(path: string, name: string): Promise<T[]> {
  const body = await request<T[] | Record<string, T[]>>('GET', path);
  return Array.isArray(body) ? body : (body[name] ?? []);
}

/** Every endpoint the app uses, by resource. */
export const api = {
  flow: () => request<Flow>('GET', '/api/flow'),
  settings: {
    get: () => request<Settings>('GET', '/api/settings'),
    update: (patch: SettingsUpdate) => request<Settings>('PUT', '/api/settings', patch),
    check: () => request<SettingsCheck>('GET', '/api/settings/check'),
    /** Calls `{base_url}/models` with the values given (the saved ones where absent). */
    testConnection: (input: ConnectionTestInput) =>
      request<ConnectionTest>('POST', '/api/settings/test-connection', input),
    /** Starts the saved MCP server of that name, lists its tools and stops it. */
    mcpHealth: (name: string) =>
      request<McpHealth>('POST', `/api/settings/mcp-servers/${id(name)}/health`, {}),
  },
  directories: {
    /** One page of 2,000 entries from `offset`. */
    list: (path?: string, offset = 0) => {
      const query = new URLSearchParams({
        ...(path ? { path } : {}),
        ...(offset ? { offset: String(offset) } : {}),
      });
      return request<DirectoryListing>('GET', `/api/directories${query.size ? `?${query}` : ''}`);
    },
  },
  projects: {
    list: () => list<Project>('/api/projects', 'projects'),
    get: (projectId: string) => request<Project>('GET', `/api/projects/${id(projectId)}`),
    create: (input: ProjectCreate) => request<Project>('POST', '/api/projects', input),
    update: (projectId: string, patch: ProjectUpdate & ProjectChecksUpdate & ProjectTrustUpdate) =>
      request<Project>('PUT', `/api/projects/${id(projectId)}`, patch),
    remove: (projectId: string) => request<void>('DELETE', `/api/projects/${id(projectId)}`),
    init: (projectId: string, one?: { repository: string; layer: string }) =>
      request<{ project: Project; knowledge: Knowledge }>(
        'POST',
        `/api/projects/${id(projectId)}/init`,
        one ?? {},
      ),
    knowledge: (projectId: string) => request<Knowledge>('GET', `/api/projects/${id(projectId)}/knowledge`),
    repositoryConfig: (projectId: string) =>
      request<ProjectRepositoryConfig>('GET', `/api/projects/${id(projectId)}/repository-config`),
  },
  tasks: {
    list: (projectId?: string) =>
      list<Task>(projectId ? `/api/tasks?project_id=${id(projectId)}` : '/api/tasks', 'tasks'),
    get: (taskId: string) => request<Task>('GET', `/api/tasks/${id(taskId)}`),
    create: (input: TaskCreate) => request<Task>('POST', '/api/tasks', input),
    remove: (taskId: string) => request<void>('DELETE', `/api/tasks/${id(taskId)}`),
    init: (taskId: string) => request<Task>('POST', `/api/tasks/${id(taskId)}/init`, {}),
    confirmInit: (taskId: string) => request<Task>('POST', `/api/tasks/${id(taskId)}/confirm-init`, {}),
    plan: (taskId: string, message?: string) =>
      request<{ task: Task; session: Session }>(
        'POST',
        `/api/tasks/${id(taskId)}/plan`,
        message ? { message } : {},
      ),
    lockPlan: (taskId: string) =>
      request<{ task: Task; session: Session }>('POST', `/api/tasks/${id(taskId)}/lock-plan`, {}),
    todo: (taskId: string, message?: string) =>
      request<{ task: Task; session: Session }>(
        'POST',
        `/api/tasks/${id(taskId)}/todo`,
        message ? { message } : {},
      ),
    startCoding: (taskId: string) => request<Task>('POST', `/api/tasks/${id(taskId)}/start-coding`, {}),
    runAll: (taskId: string) => request<Task>('POST', `/api/tasks/${id(taskId)}/run-all`, {}),
    diff: (taskId: string) => request<TaskDiff>('GET', `/api/tasks/${id(taskId)}/diff`),
    /** One file's patch, for a file past the task diff's 1 MiB cut. */
    fileDiff: (taskId: string, repository: string, path: string) =>
      request<FileDiff>(
        'GET',
        `/api/tasks/${id(taskId)}/diff/file?${new URLSearchParams({ repository, path })}`,
      ),
    commitMessage: (taskId: string, message?: string) =>
      request<{ task: Task; session: Session }>(
        'POST',
        `/api/tasks/${id(taskId)}/commit-message`,
        message ? { message } : {},
      ),
    submitMr: (taskId: string, input: { title?: string; description?: string } = {}) =>
      request<Task>('POST', `/api/tasks/${id(taskId)}/submit-mr`, input),
    /** Stage 05's reviewer again over the whole change (it runs by itself on entering review). */
    review: (taskId: string) =>
      request<{ task: Task; session: Session }>('POST', `/api/tasks/${id(taskId)}/review`, {}),
    dismissFinding: (taskId: string, findingId: string) =>
      request<ReviewFinding>('POST', `/api/tasks/${id(taskId)}/findings/${id(findingId)}/dismiss`, {}),
    /** Findings, failed MR checks, MR comments or written todos become todos: the task goes back to CODING. */
    followUp: (taskId: string, input: FollowUpInput) =>
      request<{ task: Task; todos: Todo[] }>('POST', `/api/tasks/${id(taskId)}/follow-up`, input),
    mergeRequests: (taskId: string) =>
      request<{ task_id: string; merge_requests: FollowedMergeRequest[] }>(
        'GET',
        `/api/tasks/${id(taskId)}/merge-requests`,
      ),
    /** Reads every followed merge request now from GitHub or GitLab. */
    refreshMergeRequests: (taskId: string) =>
      request<{ task_id: string; merge_requests: FollowedMergeRequest[] }>(
        'POST',
        `/api/tasks/${id(taskId)}/merge-requests/refresh`,
        {},
      ),
    /** Hand edits: plan.md (a new version), the todo list, the commit message and MR text. */
    savePlan: (taskId: string, content: string) =>
      request<{ task: Task; version: PlanVersion }>('PUT', `/api/tasks/${id(taskId)}/plan`, { content }),
    planVersions: (taskId: string) =>
      request<{ task_id: string; versions: PlanVersion[] }>('GET', `/api/tasks/${id(taskId)}/plan/versions`),
    planDiff: (taskId: string, from: number, to: number) =>
      request<PlanDiff>('GET', `/api/tasks/${id(taskId)}/plan/diff?from=${from}&to=${to}`),
    addTodo: (taskId: string, input: TodoInput) =>
      request<{ todo: Todo; todos: Todo[] }>('POST', `/api/tasks/${id(taskId)}/todos`, input),
    editTodo: (taskId: string, todoId: string, patch: TodoPatch) =>
      request<{ todo: Todo; todos: Todo[] }>('PATCH', `/api/tasks/${id(taskId)}/todos/${id(todoId)}`, patch),
    removeTodo: (taskId: string, todoId: string) =>
      request<{ todos: Todo[] }>('DELETE', `/api/tasks/${id(taskId)}/todos/${id(todoId)}`),
    reorderTodos: (taskId: string, todoIds: string[]) =>
      request<{ todos: Todo[] }>('PUT', `/api/tasks/${id(taskId)}/todos/order`, { todo_ids: todoIds }),
    editCommitMessage: (taskId: string, edit: CommitMessageEdit) =>
      request<Task>('PUT', `/api/tasks/${id(taskId)}/commit-message`, edit),
    cancel: (taskId: string) => request<Task>('POST', `/api/tasks/${id(taskId)}/cancel`, {}),
    reopen: (taskId: string) => request<Task>('POST', `/api/tasks/${id(taskId)}/reopen`, {}),
  },
  todos: {
    execute: (todoId: string) =>
      request<{ todo: Todo; session: Session }>('POST', `/api/todos/${id(todoId)}/execute`, {}),
    skip: (todoId: string) => request<Todo>('POST', `/api/todos/${id(todoId)}/skip`, {}),
    diff: (todoId: string) => request<TodoDiff>('GET', `/api/todos/${id(todoId)}/diff`),
  },
  skills: {
    list: () => list<Skill>('/api/skills', 'skills'),
    get: (skillId: string) => request<SkillWithContent>('GET', `/api/skills/${id(skillId)}`),
    create: (input: SkillCreate) => request<SkillWithContent>('POST', '/api/skills', input),
    update: (skillId: string, patch: SkillUpdate) =>
      request<SkillWithContent>('PUT', `/api/skills/${id(skillId)}`, patch),
    remove: (skillId: string) => request<void>('DELETE', `/api/skills/${id(skillId)}`),
    link: (skillId: string, projectId: string, linked: boolean) =>
      request<SkillWithContent>('POST', `/api/skills/${id(skillId)}/link`, { project_id: projectId, linked }),
  },
  conversations: {
    list: () => list<Conversation>('/api/conversations', 'conversations'),
    get: (conversationId: string) => request<Conversation>('GET', `/api/conversations/${id(conversationId)}`),
    create: (input: ConversationCreate) => request<Conversation>('POST', '/api/conversations', input),
    remove: (conversationId: string) => request<void>('DELETE', `/api/conversations/${id(conversationId)}`),
    init: (conversationId: string) =>
      request<{ conversation: Conversation; session: Session }>(
        'POST',
        `/api/conversations/${id(conversationId)}/init`,
        {},
      ),
  },
  sessions: {
    status: (sessionId: string) => request<Session>('GET', `/api/sessions/${id(sessionId)}/status`),
    logs: (sessionId: string, after = 0, limit = 1000) =>
      request<LogPage>('GET', `/api/sessions/${id(sessionId)}/logs?after=${after}&limit=${limit}`),
    /** Stops the session's running work; answers once it ended (409 SESSION_NOT_RUNNING when nothing ran). */
    stop: (sessionId: string) => request<Session>('POST', `/api/sessions/${id(sessionId)}/stop`, {}),
    /** A message to the session: a turn now, or queued until the running one ends. */
    send: (sessionId: string, content: string) =>
      request<SentMessage>('POST', `/api/sessions/${id(sessionId)}/messages`, { content }),
    queue: (sessionId: string) =>
      request<{ session_id: string; messages: QueuedMessage[] }>(
        'GET',
        `/api/sessions/${id(sessionId)}/queue`,
      ),
    /** Takes a queued message out: it never runs. */
    unqueue: (sessionId: string, messageId: string) =>
      request<{ session_id: string; messages: QueuedMessage[] }>(
        'DELETE',
        `/api/sessions/${id(sessionId)}/queue/${id(messageId)}`,
      ),
  },
};
