import { InvalidParamsError } from '../errors/index.ts';
import { type SubAgentType, spawnRequestSchema } from '../wire/index.ts';

// The spawn request's schema is the wire's (`@keel/runtime/wire`, which @keel/protocol re-exports); what
// the runtime adds is its defaults and how a bad one fails.
export type { SpawnRequest } from '../wire/index.ts';
export { maxAgentTimeoutSeconds, spawnRequestSchema } from '../wire/index.ts';

/** The spec's defaults (section 8): five sub-agents at once, 300 seconds each. */
export const defaultAgentLimits = { max_concurrent: 5, timeout_seconds: 300 } as const;

export interface ParsedSpawnRequest {
  task: string;
  type: SubAgentType;
  /** Null: the configured default. */
  timeout: number | null;
  workdir?: string;
}

/** Validates a spawn request; INVALID_PARAMS names the field. */
export function parseSpawnRequest(request: unknown): ParsedSpawnRequest {
  const parsed = spawnRequestSchema.safeParse(request);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      field: issue.path.map(String).join('.') || '(body)',
      message: issue.message,
    }));
    throw new InvalidParamsError(
      `Invalid spawn request: ${issues.map((issue) => `${issue.field}: ${issue.message}`).join('; ')}.`,
      { issues },
    );
  }
  const { task, type, timeout, workdir } = parsed.data;
  return { task, type: type ?? 'generic', timeout: timeout ?? null, ...(workdir ? { workdir } : {}) };
}
