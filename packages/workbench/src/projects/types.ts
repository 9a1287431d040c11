import {
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
// A project's records are the store's (store/records/project.ts): the store imports no area.
export type {
  KnowledgeLayer,
  KnowledgeRecord,
  KnowledgeStatus,
  Project,
  ProjectStatus,
  Repository,
  ReviewedConfig,
} from '../store/index.ts';
export { knowledgeLayers, knowledgeStatuses, projectStatuses, providers, repositoryTypes };

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
