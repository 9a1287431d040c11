import type { CheckSetting, PreviewSetting, SetupSetting } from '@keel/protocol/workbench';
import {
  type KnowledgeLayer,
  knowledgeLayers,
  knowledgeStatuses,
  projectStatuses,
  repositoryProviders as providers,
  repositoryTypes,
} from '@keel/protocol/workbench/names';

export {
  type CheckSetting,
  checkSchema,
  type PreviewSetting,
  previewSchema,
  projectCreateSchema,
  projectInitSchema,
  projectUpdateSchema,
  repositoryInputSchema,
  type SetupSetting,
  setupSchema,
} from '@keel/protocol/workbench';
export { knowledgeLayers, knowledgeStatuses, projectStatuses, providers, repositoryTypes };

export type ProjectStatus = (typeof projectStatuses)[number];
export type { KnowledgeLayer };
export type KnowledgeStatus = (typeof knowledgeStatuses)[number];

/**
 * What the source repository's `.runtime/config.json` asked for when the user turned the project's
 * `trust_repository_config` on (the runtime's pin): its runs apply the file only while it asks for the same.
 */
export interface ReviewedConfig {
  sha256: string;
  keys: Record<string, string>;
  reviewed_at: string;
}

export interface Repository {
  /** Absolute path of the repository's root. */
  path: string;
  type: (typeof repositoryTypes)[number];
  name: string;
  provider?: (typeof providers)[number];
  /** Its verification commands: found by a scan when the project is created, edited in its settings. */
  checks?: CheckSetting[];
  /** What installs its dependencies in a task's workspace: found from its lockfile, edited later; null: none. */
  setup?: SetupSetting | null;
  /** Its run/dev command for a task's preview: found from its files, edited later; null: none. */
  preview?: PreviewSetting | null;
  /** Set while the project trusts its repositories' config: what was reviewed (stored, never on the wire). */
  reviewed_config?: ReviewedConfig;
}

export interface Project {
  id: string;
  name: string;
  description: string;
  repositories: Repository[];
  default_runner: string | null;
  /**
   * Whether its repositories' `.runtime/config.json` apply their security-relevant keys (model URL,
   * sandbox, security policy, MCP and LSP commands, …) in the Keel runs of this project. Default false:
   * they never do, whatever the runtime's global trust list says.
   */
  trust_repository_config: boolean;
  /** Turns a todo gets to fix its failing checks before it is `failed` (0: none). */
  repair_turns: number;
  /**
   * Whether task initialisation runs the repositories' `setup` commands (default false: a repository the
   * user has not trusted runs no install script). On, they run in the sandbox with the network on.
   */
  run_setup: boolean;
  /** The runner config of the reviewer at the start of stage 05 (null: the task's own runner). */
  review_runner: string | null;
  status: ProjectStatus;
  error: string | null;
  created_at: string;
  updated_at: string;
}

export interface KnowledgeRecord {
  project_id: string;
  repository: string;
  layer: KnowledgeLayer;
  status: KnowledgeStatus;
  error: string | null;
  session_id: string | null;
  updated_at: string;
}

/** One key of a repository's `.runtime/config.json` that applies only when the project trusts it. */
export interface RepositoryConfigAsk {
  /** The config file. */
  file: string;
  /** Dotted key path as written, e.g. `sandbox.enabled`. */
  key: string;
  /** The value it asks for, secrets masked. */
  value: unknown;
  /** Why it needs trust, in one word (the runtime's trust table: endpoint, command, sandbox, …). */
  kind: string;
  /** What the key could do. */
  why: string;
}

/** What one repository's `.runtime/config.json` asks for that applies only when trusted. */
export interface RepositoryConfigReport {
  repository: string;
  /** The user's source repository the file was read from. */
  path: string;
  file: string;
  /** Whether the project's Keel runs apply these keys now. */
  trusted: boolean;
  asks: RepositoryConfigAsk[];
  /** The file (or the runtime's global config) could not be read: nothing of it applies. */
  error?: { code: string; message: string };
}
