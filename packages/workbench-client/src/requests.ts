// REQUEST BODIES, WRITTEN OUT HERE BY HAND. @keel/protocol describes every answer of the workbench but no
// request body yet (issue #25): these types mirror the route schemas in packages/workbench/src
// (`settings/schema.ts`, `settings/connection-test.ts`, `projects/types.ts`, `tasks/types.ts`,
// `sessions/routes.ts`) and the workbench README's endpoint table. The service checks every body itself
// (400 INVALID_PARAMS naming the field; unknown fields are refused), so a drift here shows as a 400, not as
// a wrong write. Move them to the protocol package when it gains request schemas.
import type { KnowledgeLayer, RepositoryType, RunnerKind } from '@keel/protocol/workbench';

/** `PUT /api/settings`: every field optional; null clears model, base_url and the secrets. */
export interface SettingsUpdate {
  model?: string | null;
  /** An absolute http(s) URL. */
  base_url?: string | null;
  api_key?: string | null;
  default_runner?: string;
  runner_configs?: {
    id: string;
    name: string;
    kind: RunnerKind;
    binary_path?: string;
    model?: string;
    extra_args?: string[];
    env?: Record<string, string>;
  }[];
  /** A secret `env` value sent back as `"••••"` keeps the stored one. */
  mcp_servers?: {
    name: string;
    command: string;
    args?: string[];
    env?: Record<string, string>;
    enabled?: boolean;
    env_set?: Record<string, boolean>;
  }[];
  github_token?: string | null;
  github_api_url?: string;
  gitlab_token?: string | null;
  gitlab_api_url?: string;
  /** Replaced as a whole. */
  prd_links?: { allow_private_network?: boolean; allowed_hosts?: string[] };
  /** Replaced as a whole. */
  git_identity?: { name?: string | null; email?: string | null };
}

/** `POST /api/settings/test-connection`: unsaved values to test instead of the saved ones. */
export interface ConnectionTestInput {
  base_url?: string;
  api_key?: string;
  model?: string;
}

export interface RepositoryInput {
  path: string;
  type: RepositoryType;
  /** Its folder in each task's work directory (default: the path's last name). */
  name?: string;
  provider?: 'gitlab' | 'github' | 'other';
}

/** `POST /api/projects`. */
export interface ProjectCreate {
  name: string;
  description?: string;
  repositories: RepositoryInput[];
  default_runner?: string | null;
}

/** `PUT /api/projects/{id}`. */
export interface ProjectUpdate {
  name?: string;
  description?: string;
  /** New repositories reset the knowledge and generate it again. */
  repositories?: RepositoryInput[];
  default_runner?: string | null;
  trust_repository_config?: boolean;
  /** Per repository name, its checks replaced as a whole (`[]`: none). */
  checks?: Record<string, { name: string; command: string; timeout_ms?: number }[]>;
  /** 0–5. */
  repair_turns?: number;
  review_runner?: string | null;
}

/** `POST /api/projects/{id}/init`: nothing (every layer), or one layer of one repository to retry. */
export type ProjectInit = Record<string, never> | { repository: string; layer: KnowledgeLayer };

export interface TaskImageInput {
  /** Base64, at most 5 MiB of it. */
  data: string;
  /** `image/…`. */
  media_type: string;
  filename?: string;
}

/** `POST /api/tasks`. */
export interface TaskCreate {
  project_id: string;
  description: string;
  /** http(s) URLs, at most 20. */
  prd_links?: string[];
  /** At most 8. */
  images?: TaskImageInput[];
  /** A runner config id; null: the project's default. */
  runner?: string | null;
  branch?: string;
}

/** `PUT /api/tasks/{id}`: the input fields, until planning ends. */
export interface TaskUpdate {
  description?: string;
  prd_links?: string[];
  images?: TaskImageInput[];
  runner?: string | null;
  branch?: string;
}

/** `POST /api/tasks/{id}/plan`, `/todo`, `/commit-message`: a message refines or adjusts; none drafts again. */
export interface StageMessage {
  message?: string;
}

/** `POST /api/tasks/{id}/submit-mr` (default: the edited MR title and description, else the commit message). */
export interface SubmitMergeRequest {
  title?: string;
  description?: string;
}

/** `PUT /api/tasks/{id}/commit-message` (REVIEWING; null: from the commit message again). */
export interface CommitMessageEdit {
  commit_message?: string;
  mr_title?: string | null;
  mr_description?: string | null;
}

export interface TodoInput {
  title: string;
  description?: string;
  expected_output?: string;
}

/** `POST /api/tasks/{id}/todos` (TODO_READY): `position` is 1-based, default the end. */
export interface TodoCreate extends TodoInput {
  position?: number;
}

/** `PATCH /api/tasks/{id}/todos/{todo_id}`: at least one field. */
export type TodoUpdate = Partial<TodoInput>;

/** `POST /api/tasks/{id}/follow-up`: at least one finding, merge-request item or todo. */
export interface FollowUp {
  findings?: string[];
  merge_request?: ({ repository: string; check: string } | { repository: string; comment_id: string })[];
  todos?: TodoInput[];
}

/** `GET /api/sessions/{id}/logs`. */
export interface LogQuery {
  /** Entries with a seq above this (default 0). */
  after?: number;
  /** 1–1000 (default 200). */
  limit?: number;
}
