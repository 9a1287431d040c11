// The runtime's closed sets of names that travel on the wire, as plain lists without the schema library:
// `@keel/runtime/wire/names`, which `@keel/protocol/runtime/names` re-exports for browser bundles that want
// the values (the console's status filters) and not zod. Nothing here may import Node, zod or openai.

/**
 * queued: waiting for a worker to claim it; running: a worker holds its lease; waiting: needs an approval
 * or an answer, no worker holds it; paused: stopped at a safe boundary on request; succeeded, failed and
 * cancelled are final.
 */
export const runStatuses = [
  'queued',
  'running',
  'waiting',
  'paused',
  'succeeded',
  'failed',
  'cancelled',
] as const;
export type RunStatus = (typeof runStatuses)[number];

export const finishedStatuses: readonly RunStatus[] = ['succeeded', 'failed', 'cancelled'];

/** The kinds of sub-agent (spec section 4, `POST /agent/spawn`): each has its own tools and prompt. */
export const subAgentTypes = ['code', 'research', 'test', 'generic'] as const;
export type SubAgentType = (typeof subAgentTypes)[number];
