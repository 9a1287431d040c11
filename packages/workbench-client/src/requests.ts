// REQUEST BODIES. The project and task routes' come from @keel/protocol; the others are still written out here by
// hand (issue #25): they mirror the route schemas in packages/workbench/src
// (`settings/schema.ts`, `settings/connection-test.ts`, `projects/types.ts`, `tasks/types.ts`,
// `sessions/routes.ts`) and the workbench README's endpoint table. The service checks every body itself
// (400 INVALID_PARAMS naming the field; unknown fields are refused), so a drift here shows as a 400, not as
// a wrong write. Move them to the protocol package when it gains request schemas.
import type { RunnerKind } from '@keel/protocol/workbench';

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

// The project and task routes' bodies come from the protocol (the schemas the service validates them with).
export type {
  CommitMessageEdit,
  FollowUpInput as FollowUp,
  LogQuery,
  MessageInput as StageMessage,
  ProjectCreate,
  ProjectInit,
  ProjectUpdate,
  RepositoryInput,
  SubmitInput as SubmitMergeRequest,
  TaskCreate,
  TaskImageInput,
  TaskUpdate,
  TodoInput as TodoCreate,
  TodoPatch as TodoUpdate,
} from '@keel/protocol/workbench';
