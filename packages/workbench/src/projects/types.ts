import { z } from 'zod';

export const repositoryTypes = ['frontend', 'backend', 'custom'] as const;
export const providers = ['gitlab', 'github', 'other'] as const;
export const projectStatuses = ['CREATED', 'INITIALIZING', 'READY', 'FAILED'] as const;
export type ProjectStatus = (typeof projectStatuses)[number];
export const knowledgeLayers = ['structure', 'business_flow', 'modules', 'index'] as const;
export type KnowledgeLayer = (typeof knowledgeLayers)[number];
export const knowledgeStatuses = ['pending', 'running', 'done', 'failed'] as const;
export type KnowledgeStatus = (typeof knowledgeStatuses)[number];

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
}

export interface Project {
  id: string;
  name: string;
  description: string;
  repositories: Repository[];
  default_runner: string | null;
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
});

export const projectInitSchema = z
  .strictObject({
    /** With `layer`: retry that one layer of that repository (by repository name). */
    repository: z.string().min(1).optional(),
    layer: z.enum(knowledgeLayers).optional(),
  })
  .refine((body) => (body.repository === undefined) === (body.layer === undefined), {
    message: 'give both repository and layer (one layer) or neither (every layer)',
  });
