import type { ToolContext } from '../tools/index.ts';

/**
 * What a `tools/call` tells the server of the call, in MCP's `_meta` (keys under Keel's own `keel/`
 * prefix): the run, which execution of it (`keel/attempt`, above 1 when the call may have been made
 * before, by a worker that died), the model's tool call id, and their idempotency key, the same for every
 * execution of the same call, so a server can do a repeated call's work once. None for a direct call.
 */
export function callMeta(ctx: ToolContext): Record<string, string | number> | undefined {
  const { run, toolCallId } = ctx;
  if (!run && !toolCallId) return undefined;
  return {
    ...(run ? { 'keel/run_id': run.id, 'keel/attempt': run.attempt } : {}),
    ...(toolCallId ? { 'keel/tool_call_id': toolCallId } : {}),
    ...(run && toolCallId ? { 'keel/idempotency_key': `${run.id}:${toolCallId}` } : {}),
  };
}
