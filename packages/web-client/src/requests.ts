import type { ApprovalStatus, RunStatus } from '@keel/protocol/runtime';

// Every request body the client sends, from @keel/protocol/runtime: the schemas keel-web validates them with.
export type {
  ApprovalAnswerBody,
  ApprovalDecisionBody,
  ConfigUpdate,
  NewProject,
  NewTask,
  ProjectUpdate,
  RunRequest,
  SpawnRequest,
  StartRunBody,
  TaskUpdate,
  ToolCallBody,
} from '@keel/protocol/runtime';

// The query strings (keel-web declares them on its routes; they are not part of the protocol).

/** A page of records: newest first, `cursor` is the previous page's `next_cursor`. */
export interface PageQuery {
  limit?: number;
  cursor?: string;
}

/** `GET /runtime/runs`; `workdir` picks the store (default the server's). */
export interface RunListQuery extends PageQuery {
  status?: RunStatus;
  workdir?: string;
}

export interface ProjectListQuery extends PageQuery {
  workdir?: string;
}

export interface ApprovalListQuery {
  run_id?: string;
  status?: ApprovalStatus;
  limit?: number;
  workdir?: string;
}

/** `GET /audit`: `event` is a kind (tool_call, file_write, …), `since` an ISO 8601 instant. */
export interface AuditQuery {
  event?: string;
  run_id?: string;
  since?: string;
  limit?: number;
  workdir?: string;
}

/** `POST /sessions`: title (default `New session`), model and workdir (default empty). */
export interface SessionCreate {
  title?: string;
  model?: string;
  workdir?: string;
}

/** The project whose skills and configuration count (default the server's workdir). */
export interface SkillQuery {
  workdir?: string;
}

/** Which configuration file an enable or disable is written to (default global). */
export interface SkillChangeQuery extends SkillQuery {
  scope?: 'global' | 'project';
}

/** `GET /api/directories`: `path` (default the user's home), `hidden` to list dot entries. */
export interface DirectoryQuery {
  path?: string;
  hidden?: 'true' | 'false';
}
