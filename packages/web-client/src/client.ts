import type {
  Approval,
  ApprovalDecided,
  ArtifactWithContent,
  AuditPage,
  CheckpointList,
  ConfigStatus,
  Deleted,
  Directory,
  EffectiveConfig,
  Health,
  Project,
  ProjectInit,
  ProjectPage,
  Run,
  RunDetail,
  RunMetrics,
  RunPage,
  RunResult,
  ServerInfo,
  ServerMetrics,
  Session,
  SessionDetail,
  Skill,
  SkillDetail,
  SkillList,
  SubAgent,
  Task,
  TaskPage,
  Timeline,
  ToolCallResult,
  UserInput,
} from '@keel/protocol/runtime';
import * as wire from '@keel/protocol/runtime';
import {
  type FollowOptions,
  followRun,
  type ReconnectOptions,
  type RunEventEntry,
  readEvents,
  type StreamContext,
} from './events.ts';
import { createCall, type Fetch, httpOf, segment as id } from './http.ts';
import type {
  ApprovalAnswerBody,
  ApprovalDecisionBody,
  ApprovalListQuery,
  AuditQuery,
  ConfigUpdate,
  DirectoryQuery,
  NewProject,
  NewTask,
  PageQuery,
  ProjectListQuery,
  ProjectUpdate,
  RunListQuery,
  RunRequest,
  SessionCreate,
  SkillChangeQuery,
  SkillQuery,
  SpawnRequest,
  StartRunBody,
  TaskUpdate,
  ToolCallBody,
} from './requests.ts';

export interface KeelWebClientOptions {
  /** Where keel-web answers, e.g. `http://127.0.0.1:8000`. */
  baseUrl: string;
  /** `RUNTIME_AUTH_API_KEY`: sent as `Authorization: Bearer`. */
  apiKey?: string;
  /** Default: the global `fetch`. Also a seam for tests (wrap it to drop connections). */
  fetch?: Fetch;
  /** How a dropped event stream is tried again (`runs.follow`). */
  reconnect?: ReconnectOptions;
}

/** A typed client of keel-web: every answer checked against its `@keel/protocol/runtime` schema. */
export function createKeelWebClient(options: KeelWebClientOptions) {
  const fetcher: Fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const http = httpOf({ baseUrl: options.baseUrl, apiKey: options.apiKey, fetch: fetcher });
  const call = createCall(http);

  const run = (runId: string, action = '') => `/runtime/runs/${id(runId)}${action ? `/${action}` : ''}`;
  const getRun = (runId: string): Promise<RunDetail> => call('GET', run(runId), wire.runDetail);
  const stream: StreamContext = {
    http,
    reconnect: {
      initialDelayMs: options.reconnect?.initialDelayMs ?? 250,
      maxDelayMs: options.reconnect?.maxDelayMs ?? 5000,
      maxAttempts: options.reconnect?.maxAttempts ?? 10,
    },
    getRun,
  };
  const control = (action: string) => (runId: string) => call('POST', run(runId, action), wire.run);

  const runs = {
    /** `POST /runtime/runs` (202): the run is queued and executes in the server; follow it with `follow`. */
    start: (body: StartRunBody): Promise<Run> => call('POST', '/runtime/runs', wire.run, { body }),
    /** `POST /run`: runs to its end and answers the run result (the workdir defaults to the server's). */
    run: (body: RunRequest): Promise<RunResult> =>
      call('POST', '/run', wire.runResult, { body: { ...body, stream: false } }),
    /** Newest first; `next_cursor` is the next page's `cursor`. */
    list: (query: RunListQuery = {}): Promise<RunPage> =>
      call('GET', '/runtime/runs', wire.runPage, { query: { ...query } }),
    /** The run, whether its worker died (`orphaned`), and its steps. */
    get: getRun,
    timeline: (runId: string): Promise<Timeline> => call('GET', run(runId, 'timeline'), wire.timeline),
    metrics: (runId: string): Promise<RunMetrics> => call('GET', run(runId, 'metrics'), wire.runMetrics),
    checkpoints: async (runId: string): Promise<CheckpointList['checkpoints']> =>
      (await call('GET', run(runId, 'checkpoints'), wire.checkpointList)).checkpoints,
    artifacts: async (runId: string) =>
      (await call('GET', run(runId, 'artifacts'), wire.artifactList)).artifacts,
    /** A pause at the next safe boundary. */
    pause: control('pause'),
    /** Cancels it, from any process: the run ends `cancelled`. */
    cancel: control('cancel'),
    /** Resumes a waiting or paused run. */
    resume: control('resume'),
    /** Runs a failed or cancelled run again. */
    retry: control('retry'),
    /** Takes over a running run whose worker died. */
    recover: control('recover'),
    /** `POST /runtime/runs/{id}/input` (202): shown to the model at its next turn (`user_input_received`). */
    input: (runId: string, content: string): Promise<UserInput> =>
      call('POST', run(runId, 'input'), wire.userInput, { body: { content } }),
    /** `POST /runtime/forks` (202): a new run from one of the run's checkpoints. */
    fork: (checkpointId: string): Promise<Run> =>
      call('POST', '/runtime/forks', wire.run, { body: { checkpoint_id: checkpointId } }),
    /** The events stored after `after` (default 0), up to the run's `last_seq` now: one page of its log. */
    events: (runId: string, query: { after?: number; signal?: AbortSignal } = {}): Promise<RunEventEntry[]> =>
      readEvents(stream, runId, query),
    /**
     * Follows the run's events (replayed after `after`, then live) until it ends, reconnecting from the
     * last seq when the connection drops: each event once, in order. Answers the ended run's detail.
     */
    follow: (runId: string, follow: FollowOptions = {}): Promise<RunDetail> =>
      followRun(stream, runId, follow),
  };

  const approval = (approvalId: string, action = '') =>
    `/runtime/approvals/${id(approvalId)}${action ? `/${action}` : ''}`;
  const approvals = {
    /** Newest first. */
    list: async (query: ApprovalListQuery = {}): Promise<Approval[]> =>
      (await call('GET', '/runtime/approvals', wire.approvalList, { query: { ...query } })).approvals,
    get: (approvalId: string): Promise<Approval> => call('GET', approval(approvalId), wire.approval),
    /** The decided approval, and the run it let go on (the server continues it). */
    approve: (approvalId: string, body: ApprovalDecisionBody = {}): Promise<ApprovalDecided> =>
      call('POST', approval(approvalId, 'approve'), wire.approvalDecided, { body }),
    reject: (approvalId: string, body: ApprovalDecisionBody = {}): Promise<ApprovalDecided> =>
      call('POST', approval(approvalId, 'reject'), wire.approvalDecided, { body }),
    /** Answers a question (`kind: question`). */
    answer: (approvalId: string, body: ApprovalAnswerBody): Promise<ApprovalDecided> =>
      call('POST', approval(approvalId, 'answer'), wire.approvalDecided, { body }),
    /**
     * Decides an `interaction_request` of the event stream (its `request_id` is the approval's id) as the
     * WebSocket's `submit_interaction` does: `answer` with `content`, or `approve`/`reject` with a reason.
     */
    decide: (
      requestId: string,
      action: 'answer' | 'approve' | 'reject',
      content?: string,
    ): Promise<ApprovalDecided> =>
      action === 'answer'
        ? call('POST', approval(requestId, 'answer'), wire.approvalDecided, {
            body: { answer: content ?? '' },
          })
        : call('POST', approval(requestId, action), wire.approvalDecided, {
            body: content === undefined ? {} : { reason: content },
          }),
  };

  const session = (sessionId: string) => `/sessions/${id(sessionId)}`;
  const sessions = {
    /** A new session (query fields: title, model, workdir), with `message_count` 0. */
    create: (query: SessionCreate = {}): Promise<Session> =>
      call('POST', '/sessions', wire.session, { query: { ...query } }),
    /** Most recent first (default 20). */
    list: async (query: { limit?: number } = {}): Promise<Session[]> =>
      (await call('GET', '/sessions', wire.sessionList, { query })).sessions,
    get: (sessionId: string): Promise<SessionDetail> => call('GET', session(sessionId), wire.sessionDetail),
    remove: (sessionId: string): Promise<Deleted> => call('DELETE', session(sessionId), wire.deleted),
  };

  const project = (projectId: string, action = '') =>
    `/api/projects/${id(projectId)}${action ? `/${action}` : ''}`;
  const projects = {
    list: (query: ProjectListQuery = {}): Promise<ProjectPage> =>
      call('GET', '/api/projects', wire.projectPage, { query: { ...query } }),
    /** The directory must exist; the project gets its runtime directory and a session. */
    create: (body: NewProject): Promise<Project> => call('POST', '/api/projects', wire.project, { body }),
    get: (projectId: string): Promise<Project> => call('GET', project(projectId), wire.project),
    update: (projectId: string, body: ProjectUpdate): Promise<Project> =>
      call('PUT', project(projectId), wire.project, { body }),
    remove: (projectId: string): Promise<Deleted> => call('DELETE', project(projectId), wire.deleted),
    /** `POST /api/projects/{id}/init` (202): a run writing the project guide; needs a usable model. */
    init: (projectId: string): Promise<ProjectInit> =>
      call('POST', project(projectId, 'init'), wire.projectInit),
    tasks: (projectId: string, query: PageQuery = {}): Promise<TaskPage> =>
      call('GET', project(projectId, 'tasks'), wire.taskPage, { query: { ...query } }),
    /** Creates or switches to `branch_name` in the project's git repository; the task gets its own session. */
    createTask: (projectId: string, body: NewTask): Promise<Task> =>
      call('POST', project(projectId, 'tasks'), wire.task, { body }),
  };

  const task = (taskId: string) => `/api/tasks/${id(taskId)}`;
  const tasks = {
    get: (taskId: string): Promise<Task> => call('GET', task(taskId), wire.task),
    update: (taskId: string, body: TaskUpdate): Promise<Task> =>
      call('PUT', task(taskId), wire.task, { body }),
    remove: (taskId: string): Promise<Deleted> => call('DELETE', task(taskId), wire.deleted),
  };

  const config = {
    /** The effective configuration, secrets hidden. */
    get: (): Promise<EffectiveConfig> => call('GET', '/config', wire.effectiveConfig),
    /** Writes the given settings into the global file (null removes one); answers the effective configuration. */
    update: (body: ConfigUpdate): Promise<EffectiveConfig> =>
      call('PUT', '/config', wire.effectiveConfig, { body }),
    /** Whether a run has what it needs, and what the project file could not set. */
    status: (): Promise<ConfigStatus> => call('GET', '/config/status', wire.configStatus),
  };

  const skill = (name: string, action = '') => `/skills/${id(name)}${action ? `/${action}` : ''}`;
  const skills = {
    list: (query: SkillQuery = {}): Promise<SkillList> =>
      call('GET', '/skills', wire.skillList, { query: { ...query } }),
    get: (name: string, query: SkillQuery = {}): Promise<SkillDetail> =>
      call('GET', skill(name), wire.skillDetail, { query: { ...query } }),
    enable: (name: string, query: SkillChangeQuery = {}): Promise<Skill> =>
      call('POST', skill(name, 'enable'), wire.skill, { query: { ...query } }),
    disable: (name: string, query: SkillChangeQuery = {}): Promise<Skill> =>
      call('POST', skill(name, 'disable'), wire.skill, { query: { ...query } }),
  };

  const agent = (agentId: string, action = '') => `/agent/${id(agentId)}${action ? `/${action}` : ''}`;
  const agents = {
    /** A sub-agent working in the background (429 AGENT_LIMIT_REACHED past the limit). */
    spawn: (body: SpawnRequest) => call('POST', '/agent/spawn', wire.agentSpawned, { body }),
    get: (agentId: string): Promise<SubAgent> => call('GET', agent(agentId), wire.subAgent),
    kill: (agentId: string) => call('DELETE', agent(agentId), wire.agentKilled),
    resume: (agentId: string): Promise<SubAgent> => call('POST', agent(agentId, 'resume'), wire.subAgent),
  };

  return {
    runs,
    approvals,
    sessions,
    projects,
    tasks,
    config,
    skills,
    agents,
    /** `GET /health`: open even when a key is required. */
    health: (): Promise<Health> => call('GET', '/health', wire.health),
    /** `GET /console/info`: the server's version and workdir, and its built-in tools with their traits' kind. */
    info: (): Promise<ServerInfo> => call('GET', '/console/info', wire.serverInfo),
    /** `GET /metrics`: totals of the server's store. */
    metrics: (): Promise<ServerMetrics> => call('GET', '/metrics', wire.serverMetrics),
    /** `GET /audit`: newest first, and how many match. */
    audit: (query: AuditQuery = {}): Promise<AuditPage> =>
      call('GET', '/audit', wire.auditPage, { query: { ...query } }),
    /** `POST /tool`: one tool's result, as the model would have seen it. */
    callTool: (body: ToolCallBody): Promise<ToolCallResult> =>
      call('POST', '/tool', wire.toolCallResult, { body }),
    /** `GET /runtime/artifacts/{id}`: the artifact, with the address of its payload. */
    artifact: (artifactId: string): Promise<ArtifactWithContent> =>
      call('GET', `/runtime/artifacts/${id(artifactId)}`, wire.artifactWithContent),
    /** `GET /api/directories`: one directory of the server's machine. */
    directory: (query: DirectoryQuery = {}): Promise<Directory> =>
      call('GET', '/api/directories', wire.directory, { query: { ...query } }),
  };
}

export type KeelWebClient = ReturnType<typeof createKeelWebClient>;
