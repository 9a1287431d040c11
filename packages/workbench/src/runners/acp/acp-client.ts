import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute } from 'node:path';
import {
  type ClientApp,
  client,
  RequestError,
  type SessionNotification,
  type ToolCallUpdate,
} from '@agentclientprotocol/sdk';
import { KeelError } from '@keel/runtime';
import { decide, type PermissionPolicy } from './permissions.ts';

export interface ClientPolicy extends PermissionPolicy {
  onUpdate(notification: SessionNotification): void;
  /** A permission request refused by the policy, with the reason (for the session log). */
  onRefused?(call: ToolCallUpdate, reason: string): void;
}

/**
 * The editor side Keel plays for the agent: it takes `session/update`s, answers permission requests by
 * policy (`permissions.ts`: no user is there to ask, so commands are refused unless the runner config
 * allows them), and serves `fs/read_text_file` / `fs/write_text_file` confined to the
 * workspace. `terminal/*` is not offered (no capability is advertised), so the agent runs commands itself.
 */
export function keelClient(policy: ClientPolicy): ClientApp {
  return client({ name: 'keel-workbench' })
    .onNotification('session/update', ({ params }) => policy.onUpdate(params))
    .onRequest('session/request_permission', ({ params }) => decide(params, policy, policy.onRefused))
    .onRequest('fs/read_text_file', async ({ params }) => {
      const path = await confined(policy, params.path, 'read');
      const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
        throw new RequestError(-32002, `Cannot read ${params.path}: ${error.code ?? error.message}`);
      });
      return { content: sliceLines(text, params.line, params.limit) };
    })
    .onRequest('fs/write_text_file', async ({ params }) => {
      if (policy.readOnly) {
        throw new RequestError(-32602, `Refused: this session is read-only (${params.path}).`);
      }
      const path = await confined(policy, params.path, 'write');
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, params.content, 'utf8');
      return {};
    });
}

async function confined(policy: ClientPolicy, path: string, what: 'read' | 'write'): Promise<string> {
  const outside = "it is outside the workspace (also through '..' or a symlink)";
  // ACP paths are absolute: a relative one is nowhere in particular, so outside.
  if (!isAbsolute(path)) throw new RequestError(-32602, `Refused to ${what} ${path}: ${outside}`);
  try {
    return await policy.guard.resolve(path, what);
  } catch (error) {
    if (!KeelError.is(error)) throw error;
    // A protected path (.git/hooks, .runtime/, …) says which and why; anything else is outside.
    const why = error.details?.reason === 'protected_path' ? error.message : outside;
    throw new RequestError(-32602, `Refused to ${what} ${path}: ${why}`);
  }
}

/** ACP's `line` (1-based) and `limit` (a number of lines). */
function sliceLines(text: string, line: number | null | undefined, limit: number | null | undefined): string {
  if (!line && !limit) return text;
  const lines = text.split('\n');
  const start = Math.max((line ?? 1) - 1, 0);
  return lines.slice(start, limit ? start + limit : undefined).join('\n');
}
