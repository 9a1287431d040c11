import { request } from '../../api/request.ts';
import type {
  Approval,
  ApprovalStatus,
  CheckpointList,
  ConfigStatus,
  Directory,
  NewProject,
  NewTask,
  Project,
  ProjectInit,
  ProjectPage,
  ProjectUpdate,
  Run,
  RunDetail,
  RunMetrics,
  RunPage,
  RunStart,
  RunStatus,
  ServerInfo,
  Task,
  TaskPage,
  TaskUpdate,
  Timeline,
} from './runtime-types.ts';

const id = encodeURIComponent;

function query(params: Record<string, string | number | undefined>): string {
  const pairs = Object.entries(params).filter(
    (pair): pair is [string, string | number] => pair[1] !== undefined,
  );
  return pairs.length ? `?${pairs.map(([key, value]) => `${key}=${id(String(value))}`).join('&')}` : '';
}

export type RunControl = 'pause' | 'resume' | 'cancel' | 'retry' | 'recover';

/** Every keel-web endpoint the console uses (the canonical runtime API, spec section 4). */
export const runtimeApi = {
  info: () => request<ServerInfo>('GET', '/console/info'),
  configStatus: () => request<ConfigStatus>('GET', '/config/status'),
  runs: {
    list: (params: { status?: RunStatus; cursor?: string; limit?: number } = {}) =>
      request<RunPage>('GET', `/runtime/runs${query(params)}`),
    get: (runId: string) => request<RunDetail>('GET', `/runtime/runs/${id(runId)}`),
    start: (body: RunStart) => request<Run>('POST', '/runtime/runs', body),
    timeline: (runId: string) => request<Timeline>('GET', `/runtime/runs/${id(runId)}/timeline`),
    metrics: (runId: string) => request<RunMetrics>('GET', `/runtime/runs/${id(runId)}/metrics`),
    checkpoints: (runId: string) => request<CheckpointList>('GET', `/runtime/runs/${id(runId)}/checkpoints`),
    control: (runId: string, control: RunControl) =>
      request<Run>('POST', `/runtime/runs/${id(runId)}/${control}`),
    input: (runId: string, content: string) =>
      request<unknown>('POST', `/runtime/runs/${id(runId)}/input`, { content }),
    fork: (checkpointId: string) => request<Run>('POST', '/runtime/forks', { checkpoint_id: checkpointId }),
  },
  projects: {
    list: (params: { cursor?: string; limit?: number } = {}) =>
      request<ProjectPage>('GET', `/api/projects${query(params)}`),
    get: (projectId: string) => request<Project>('GET', `/api/projects/${id(projectId)}`),
    create: (body: NewProject) => request<Project>('POST', '/api/projects', body),
    update: (projectId: string, body: ProjectUpdate) =>
      request<Project>('PUT', `/api/projects/${id(projectId)}`, body),
    remove: (projectId: string) => request<unknown>('DELETE', `/api/projects/${id(projectId)}`),
    init: (projectId: string) => request<ProjectInit>('POST', `/api/projects/${id(projectId)}/init`),
    tasks: (projectId: string, params: { cursor?: string; limit?: number } = {}) =>
      request<TaskPage>('GET', `/api/projects/${id(projectId)}/tasks${query(params)}`),
    createTask: (projectId: string, body: NewTask) =>
      request<Task>('POST', `/api/projects/${id(projectId)}/tasks`, body),
  },
  tasks: {
    update: (taskId: string, body: TaskUpdate) => request<Task>('PUT', `/api/tasks/${id(taskId)}`, body),
    remove: (taskId: string) => request<unknown>('DELETE', `/api/tasks/${id(taskId)}`),
  },
  directories: (path?: string) => request<Directory>('GET', `/api/directories${query({ path })}`),
  approvals: {
    list: (params: { run_id?: string; status?: ApprovalStatus; limit?: number } = {}) =>
      request<{ approvals: Approval[] }>('GET', `/runtime/approvals${query(params)}`),
    approve: (approvalId: string, reason?: string) =>
      request<{ approval: Approval; run: Run }>(
        'POST',
        `/runtime/approvals/${id(approvalId)}/approve`,
        reason ? { reason } : {},
      ),
    reject: (approvalId: string, reason?: string) =>
      request<{ approval: Approval; run: Run }>(
        'POST',
        `/runtime/approvals/${id(approvalId)}/reject`,
        reason ? { reason } : {},
      ),
    answer: (approvalId: string, answer: string) =>
      request<{ approval: Approval; run: Run }>('POST', `/runtime/approvals/${id(approvalId)}/answer`, {
        answer,
      }),
  },
};
