import { z } from 'zod';
import { knowledgeLayers, repositoryProviders as providers, repositoryTypes } from './names.ts';

// The bodies of the project routes, as the service validates them.

/** A verification command of a repository, run at its root after each todo that changed it (issue #26). */
export const checkSchema = z.strictObject({
  /** What it checks, e.g. `test`, `lint`, `typecheck`, `build`. */
  name: z.string().trim().min(1).max(40),
  /** The command line, run in the sandbox under the runtime's command policy. */
  command: z.string().trim().min(1).max(1000),
  timeout_ms: z.number().int().min(1000).max(3_600_000).default(600_000),
});

/**
 * A repository's setup (issue #37): the command that installs its dependencies in a task's workspace, run
 * as an init step in the sandbox with the network on, when the project's `run_setup` is on.
 */
export const setupSchema = z.strictObject({
  /** The command line, e.g. `npm ci`; run at the repository's root in the workspace. */
  command: z.string().trim().min(1).max(1000),
  timeout_ms: z.number().int().min(1000).max(600_000).default(600_000),
});

/**
 * A repository's preview (issue #37): its run/dev command, started from a task in the task's workspace, in
 * the sandbox, with a free loopback port as `PORT` (and `HOST=127.0.0.1`).
 */
export const previewSchema = z.strictObject({
  /** The command line, e.g. `npm run dev`; it should listen on `$PORT`. */
  command: z.string().trim().min(1).max(1000),
});

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
  /** Each named repository's setup, replaced (`null`: none). */
  setup: z.record(z.string(), setupSchema.nullable()).optional(),
  /**
   * Whether task initialisation runs the repositories' setup commands (default false). Their install
   * scripts then run as if the user ran the install by hand, with the network on.
   */
  run_setup: z.boolean().optional(),
  /** Each named repository's preview (run/dev) command, replaced (`null`: none). */
  preview: z.record(z.string(), previewSchema.nullable()).optional(),
  review_runner: z.string().min(1).nullable().optional(),
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

export type CheckInput = z.input<typeof checkSchema>;
export type SetupInput = z.input<typeof setupSchema>;
export type PreviewInput = z.input<typeof previewSchema>;
export type RepositoryInput = z.input<typeof repositoryInputSchema>;
export type ProjectCreate = z.input<typeof projectCreateSchema>;
export type ProjectUpdate = z.input<typeof projectUpdateSchema>;
export type ProjectInit = z.input<typeof projectInitSchema>;
