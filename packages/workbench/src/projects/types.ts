import {
  type KnowledgeLayer,
  knowledgeLayers,
  knowledgeStatuses,
  projectStatuses,
  repositoryProviders as providers,
  repositoryTypes,
} from '@keel/protocol/workbench/names';
import { z } from 'zod';

export { knowledgeLayers, knowledgeStatuses, projectStatuses, providers, repositoryTypes };

export type ProjectStatus = (typeof projectStatuses)[number];
export type { KnowledgeLayer };
export type KnowledgeStatus = (typeof knowledgeStatuses)[number];

/** A verification command of a repository, run at its root after each todo that changed it (issue #26). */
export const checkSchema = z.strictObject({
  /** What it checks, e.g. `test`, `lint`, `typecheck`, `build`. */
  name: z.string().trim().min(1).max(40),
  /** The command line, run in the sandbox under the runtime's command policy. */
  command: z.string().trim().min(1).max(1000),
  timeout_ms: z.number().int().min(1000).max(3_600_000).default(600_000),
});
export type CheckSetting = z.infer<typeof checkSchema>;

/** How many repair turns a todo whose checks fail gets by default, before it is `failed`. */
export const defaultRepairTurns = 2;

/** A repository entry as given: its name becomes its folder in each task's work directory. */
export const repositoryInputSchema = z.strictObject({
  path: z.string().min(1),
  type: z.enum(repositoryTypes),
  name: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be letters, digits, dots, hyphens or underscores')
    .optional(),
  /** Overrides the provider read from the remote URL (for self-hosted GitLab or GitHub Enterprise). */
  provider: z.enum(providers).optional(),
});

export interface Repository {
  /** Absolute path of the repository's root. */
  path: string;
  type: (typeof repositoryTypes)[number];
  name: string;
  provider?: (typeof providers)[number];
  /** Its verification commands: found by a scan when the project is created, edited in its settings. */
  checks?: CheckSetting[];
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

export const projectCreateSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(20_000).default(''),
  repositories: z.array(repositoryInputSchema).min(1, 'at least one repository').max(20),
  default_runner: z.string().min(1).nullable().optional(),
});

export const projectUpdateSchema = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  description: z.string().max(20_000).optional(),
  repositories: z.array(repositoryInputSchema).min(1, 'at least one repository').max(20).optional(),
  default_runner: z.string().min(1).nullable().optional(),
  trust_repository_config: z.boolean().optional(),
  /** Each named repository's checks, replaced as a whole (`[]`: none). */
  checks: z.record(z.string(), z.array(checkSchema).max(10)).optional(),
  repair_turns: z.number().int().min(0).max(5).optional(),
  review_runner: z.string().min(1).nullable().optional(),
});

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

export const projectInitSchema = z
  .strictObject({
    /** With `layer`: retry that one layer of that repository (by repository name). */
    repository: z.string().min(1).optional(),
    layer: z.enum(knowledgeLayers).optional(),
  })
  .refine((body) => (body.repository === undefined) === (body.layer === undefined), {
    message: 'give both repository and layer (one layer) or neither (every layer)',
  });
