import { z } from 'zod';

// keel-web's other request bodies: starting a run on the canonical API, run input, forks, approval
// decisions, sub-agents, one tool call and the configuration. keel-web validates them with these schemas;
// the run request itself (`runRequest`) is checked by the runtime field by field.

/**
 * `POST /run` and `POST /run/stream`: a run request, checked field by field by the runtime against
 * `runRequest` (INVALID_PARAMS naming the field); `"stream": true` on `POST /run` streams its events.
 */
export const runCallBody = z.looseObject({ stream: z.boolean().optional() });

/** `POST /runtime/runs` (202): a run request with its workdir, optionally a workflow definition. */
export const startRunBody = z.looseObject({
  prompt: z.string().min(1),
  workdir: z.string().min(1),
  /** A workflow definition; without one the run is a single agent. */
  workflow: z.unknown().optional(),
});
export type StartRunBody = z.input<typeof startRunBody>;

/** `POST /runtime/runs/{id}/input` (202): a message for the running run, shown to the model at its next turn. */
export const runInputBody = z.object({ content: z.string().min(1) });
export type RunInputBody = z.input<typeof runInputBody>;

/** `POST /runtime/forks` (202): a new run from a checkpoint of another. */
export const forkBody = z.object({ checkpoint_id: z.string().min(1) });
export type ForkBody = z.input<typeof forkBody>;

/** `POST /runtime/approvals/{id}/approve|reject`: the body is optional (none at all is `{}`). */
export const approvalDecisionBody = z.object({ reason: z.string().optional(), by: z.string().optional() });
export type ApprovalDecisionBody = z.input<typeof approvalDecisionBody>;

/** `POST /runtime/approvals/{id}/answer`: the answer to a question. */
export const approvalAnswerBody = z.object({ answer: z.string(), by: z.string().optional() });
export type ApprovalAnswerBody = z.input<typeof approvalAnswerBody>;

/**
 * `POST /agent/spawn`: `task` required; `type` code, research, test or generic (default generic);
 * `timeout` in seconds, null or absent meaning the configured default (300); `workdir` (default the
 * server's). The runtime's own schema (`@keel/runtime/wire`), descriptions included.
 */
export {
  maxAgentTimeoutSeconds,
  type SpawnRequest,
  spawnRequestSchema as spawnRequest,
} from '@keel/runtime/wire';

/** `POST /tool`: one tool of the runtime, with its arguments, in `workdir` (default the server's). */
export const toolCallBody = z.object({
  tool: z.string().min(1),
  params: z.record(z.string(), z.unknown()).optional().default({}),
  workdir: z.string().min(1).optional(),
});
export type ToolCallBody = z.input<typeof toolCallBody>;

/** Any field may be `null`, which removes the setting from the global file. */
const setting = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

/** Present in a body only to be refused with a message saying where credentials belong. */
const credential = z
  .never({
    error: "credentials are not stored by /config: set RUNTIME_MODEL_API_KEY in the server's environment",
  })
  .optional();

/** `PUT /config`: the model, thinking settings and circuit-breaker limits, into the global `config.json`. */
export const configUpdate = z.strictObject({
  model: setting(z.string().trim().min(1)),
  model_base_url: setting(z.url({ protocol: /^https?$/, error: 'must be an http or https URL' })),
  enable_thinking: setting(z.boolean()),
  thinking_budget: setting(z.number().int().positive()),
  cb_max_tokens: setting(z.number().int().nonnegative()),
  cb_max_cost_usd: setting(z.number().nonnegative()),
  cb_max_steps: setting(z.number().int().nonnegative()),
  model_api_key: credential,
  api_key: credential,
});
export type ConfigUpdate = z.input<typeof configUpdate>;
