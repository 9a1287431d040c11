import type { CheckSetting, PreviewSetting, SetupSetting } from '@keel/protocol/workbench';
import type {
  KnowledgeLayer,
  knowledgeStatuses,
  projectStatuses,
  repositoryProviders,
  repositoryTypes,
} from '@keel/protocol/workbench/names';

export type { KnowledgeLayer };
export type ProjectStatus = (typeof projectStatuses)[number];
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
  provider?: (typeof repositoryProviders)[number];
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

/** What a new project is made of; it starts CREATED. */
export type NewProject = Pick<Project, 'name' | 'description' | 'repositories' | 'default_runner'>;
/** The fields a project update may set (every other field keeps its value). */
export type ProjectPatch = Partial<Omit<Project, 'id' | 'created_at' | 'updated_at'>>;
/** The fields of a knowledge layer an update may set. */
export type KnowledgePatch = Partial<Pick<KnowledgeRecord, 'status' | 'error' | 'session_id'>>;

/** Projects and their knowledge layers. */
export interface ProjectRecords {
  create(input: NewProject): Promise<Project>;
  /** Oldest first (created_at, then id). */
  list(): Promise<Project[]>;
  /** Throws 404 PROJECT_NOT_FOUND. */
  get(id: string): Promise<Project>;
  /** Sets the fields of `patch` and updated_at; PROJECT_NOT_FOUND for an unknown id. */
  update(id: string, patch: ProjectPatch): Promise<Project>;
  /** The project of a task, or undefined when there is no such task. */
  projectOfTask(taskId: string): Promise<string | undefined>;
  /** Deletes the project with its knowledge rows, tasks and skill links; conversations keep a null project. */
  remove(id: string): Promise<void>;
  /** The project's knowledge layers, by repository then layer. */
  knowledge(projectId: string): Promise<KnowledgeRecord[]>;
  /** Creates the layer (pending) when missing, then sets the fields of `patch`. */
  setKnowledge(
    projectId: string,
    repository: string,
    layer: KnowledgeLayer,
    patch: KnowledgePatch,
  ): Promise<void>;
  clearKnowledge(projectId: string): Promise<void>;
  /** Crash repair: layers left pending or running fail, and INITIALIZING projects with them. */
  failInterrupted(): Promise<void>;
}

/** How many repair turns a todo whose checks fail gets by default (a project without its own), before it is `failed`. */
export const defaultRepairTurns = 2;
