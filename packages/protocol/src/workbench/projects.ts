import { z } from 'zod';
import { timestamp } from './common.ts';
import {
  knowledgeLayers,
  knowledgeStatuses,
  projectStatuses,
  repositoryProviders,
  repositoryTypes,
} from './names.ts';

/** A repository's check as the project stores it: run at its root after each todo that changed it. */
export const checkSetting = z.object({
  name: z.string(),
  command: z.string(),
  timeout_ms: z.number().int(),
});
export type CheckSetting = z.infer<typeof checkSetting>;

/** A repository's setup as the project stores it: run at its root in each task's workspace during init. */
export const setupSetting = z.object({
  command: z.string(),
  timeout_ms: z.number().int(),
});
export type SetupSetting = z.infer<typeof setupSetting>;

/** A repository's preview: its run/dev command, started from a task in its workspace on a loopback `PORT`. */
export const previewSetting = z.object({
  command: z.string(),
});
export type PreviewSetting = z.infer<typeof previewSetting>;

export const repository = z.object({
  /** Absolute path of the repository's root. */
  path: z.string(),
  type: z.enum(repositoryTypes),
  /** Its folder in each task's work directory. */
  name: z.string(),
  provider: z.enum(repositoryProviders).optional(),
  /** Its verification commands: found by a scan when the project is created, edited in its settings. */
  checks: z.array(checkSetting).optional(),
  /** What installs its dependencies (found from its lockfile when the project is created; null: nothing). */
  setup: setupSetting.nullable().optional(),
  /** Its run/dev command for a preview (found from its files when the project is created; null: none). */
  preview: previewSetting.nullable().optional(),
});
export type Repository = z.infer<typeof repository>;

export const project = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  repositories: z.array(repository),
  default_runner: z.string().nullable(),
  /** Whether its repositories' .runtime/config.json apply their security-relevant keys in its Keel runs. */
  trust_repository_config: z.boolean(),
  /** Turns a todo gets to fix its failing checks before it is failed. */
  repair_turns: z.number().int(),
  /** Whether task initialisation runs the repositories' setup commands (their install scripts, network on). */
  run_setup: z.boolean(),
  /** The runner config of stage 05's reviewer (null: the task's own runner). */
  review_runner: z.string().nullable(),
  status: z.enum(projectStatuses),
  error: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Project = z.infer<typeof project>;
export type ProjectStatus = Project['status'];

export const projectList = z.object({ projects: z.array(project) });

/** One layer of one repository's knowledge. */
export const knowledgeLayer = z.object({
  project_id: z.string(),
  repository: z.string(),
  layer: z.enum(knowledgeLayers),
  status: z.enum(knowledgeStatuses),
  error: z.string().nullable(),
  session_id: z.string().nullable(),
  updated_at: timestamp,
});
export type KnowledgeRecord = z.infer<typeof knowledgeLayer>;

/** `GET /api/projects/{id}/knowledge`: every layer with its content, and the two documents built from them. */
export const knowledge = z.object({
  project_id: z.string(),
  status: z.enum(projectStatuses),
  layers: z.array(knowledgeLayer.extend({ content: z.string().nullable() })),
  project_md: z.string().nullable(),
  constitution_md: z.string().nullable(),
});
export type Knowledge = z.infer<typeof knowledge>;
export type KnowledgeLayerView = Knowledge['layers'][number];

/** One key of a repository's .runtime/config.json that applies only when the project trusts it. */
export const repositoryConfigAsk = z.object({
  file: z.string(),
  /** Dotted key path as written, e.g. `sandbox.enabled`. */
  key: z.string(),
  /** The value it asks for, secrets masked. */
  value: z.unknown(),
  /** Why it needs trust, in one word (endpoint, command, sandbox, …). */
  kind: z.string(),
  /** What the key could do. */
  why: z.string(),
});
export type RepositoryConfigAsk = z.infer<typeof repositoryConfigAsk>;

export const repositoryConfigReport = z.object({
  repository: z.string(),
  /** The user's source repository the file was read from. */
  path: z.string(),
  file: z.string(),
  /** Whether the project's Keel runs apply these keys now. */
  trusted: z.boolean(),
  asks: z.array(repositoryConfigAsk),
  /** The file (or the runtime's global config) could not be read: nothing of it applies. */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type RepositoryConfigReport = z.infer<typeof repositoryConfigReport>;

/** `GET /api/projects/{id}/repository-config`. */
export const projectRepositoryConfig = z.object({
  project_id: z.string(),
  trust_repository_config: z.boolean(),
  repositories: z.array(repositoryConfigReport),
});
export type ProjectRepositoryConfig = z.infer<typeof projectRepositoryConfig>;
