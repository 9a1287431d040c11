import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute } from 'node:path';
import {
  type ClientApp,
  client,
  type PermissionOption,
  RequestError,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from '@agentclientprotocol/sdk';
import { KeelError, type PathGuard } from '@keel/runtime';

export interface ClientPolicy {
  /** The runtime's confinement of file access to the workdir and allowed roots (protected paths too). */
  guard: PathGuard;
  /** Edits, moves, deletes, commands and file writes are refused. */
  readOnly: boolean;
  onUpdate(notification: SessionNotification): void;
}

// Tool kinds that change the workspace or run something: refused when the request is read-only.
const changingKinds = new Set(['edit', 'delete', 'move', 'execute']);

/**
 * The editor side Keel plays for the agent: it takes `session/update`s, answers permission requests by
 * policy (no user is there to ask), and serves `fs/read_text_file` / `fs/write_text_file` confined to the
 * workspace. `terminal/*` is not offered (no capability is advertised), so the agent runs commands itself.
 */
export function keelClient(policy: ClientPolicy): ClientApp {
  return client({ name: 'keel-workbench' })
    .onNotification('session/update', ({ params }) => policy.onUpdate(params))
    .onRequest('session/request_permission', ({ params }) => decide(params, policy))
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

/**
 * Allow (the most permissive allow option) what stays inside the workspace; reject edits and commands of a
 * read-only request, and anything whose locations lie outside the workspace.
 */
export async function decide(
  params: RequestPermissionRequest,
  policy: Pick<ClientPolicy, 'guard' | 'readOnly'>,
): Promise<RequestPermissionResponse> {
  const call = params.toolCall;
  const paths = [
    ...(call.locations ?? []).map((location) => location.path),
    ...(call.content ?? []).flatMap((item) => (item.type === 'diff' ? [item.path] : [])),
  ];
  const mode = changingKinds.has(call.kind ?? '') ? 'write' : 'read';
  const outside = (
    await Promise.all(paths.map(async (path) => ((await inside(policy.guard, path, mode)) ? [] : [path])))
  ).flat();
  const refuse = (policy.readOnly && changingKinds.has(call.kind ?? '')) || outside.length > 0;
  const option = refuse
    ? pick(params.options, ['reject_once', 'reject_always'])
    : pick(params.options, ['allow_always', 'allow_once']);
  return option
    ? { outcome: { outcome: 'selected', optionId: option.optionId } }
    : { outcome: { outcome: 'cancelled' } };
}

function pick(options: PermissionOption[], kinds: PermissionOption['kind'][]): PermissionOption | undefined {
  for (const kind of kinds) {
    const option = options.find((each) => each.kind === kind);
    if (option) return option;
  }
  return undefined;
}

/** The real path of an absolute `path` the guard lets `mode` reach, else undefined. */
async function inside(guard: PathGuard, path: string, mode: 'read' | 'write'): Promise<string | undefined> {
  if (!isAbsolute(path)) return undefined;
  return guard.resolve(path, mode).catch(() => undefined);
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
