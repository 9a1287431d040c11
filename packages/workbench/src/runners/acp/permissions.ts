import { isAbsolute } from 'node:path';
import type {
  PermissionOption,
  RequestPermissionRequest,
  RequestPermissionResponse,
  ToolCallUpdate,
} from '@agentclientprotocol/sdk';
import { KeelError, type PathGuard } from '@keel/runtime';

/** The runner config's env entry that lets an editor agent run commands: `allow` or `refuse` (default). */
export const commandsSetting = 'KEEL_ACP_COMMANDS';

/**
 * Whether the agent's commands (and tool calls the workbench cannot place) are allowed: only when the runner
 * config's env says `KEEL_ACP_COMMANDS=allow`. Anything else refuses; a value that is neither is named in
 * the refusal, so a typo does not pass for a choice.
 */
export function commandsPolicyOf(env: Record<string, string>): CommandsPolicy {
  const value = env[commandsSetting]?.trim();
  if (value === 'allow') return { allow: true };
  return value === undefined || value === '' || value === 'refuse'
    ? { allow: false }
    : { allow: false, invalid: value };
}

export interface CommandsPolicy {
  allow: boolean;
  /** A value of KEEL_ACP_COMMANDS that is neither `allow` nor `refuse`. */
  invalid?: string;
}

export interface PermissionPolicy {
  /** The runtime's confinement of file access to the workdir and allowed roots (protected paths too). */
  guard: PathGuard;
  /** The request may read and search, not change files or run anything. */
  readOnly: boolean;
  commands: CommandsPolicy;
}

// Kinds that only look: allowed where every location they name is readable in the workspace.
const looking = new Set(['read', 'search', 'think']);
// Kinds that change files: allowed (outside read-only requests) where every file they name is writable.
const changing = new Set(['edit', 'delete', 'move']);

/**
 * The answer to `session/request_permission`, by policy (no user is there to ask): the `allow_once` option
 * for what the policy allows (never `allow_always`: each later call is asked and judged again), else a
 * reject option with the reason in `_meta.reason`. Reads and file edits inside the workspace are allowed;
 * a command (`execute`) and every kind the workbench cannot confine (`fetch`, `switch_mode`, `other`, none)
 * only when the runner config says `KEEL_ACP_COMMANDS=allow`; nothing but reads in a read-only request,
 * and nothing whose locations lie outside the workspace.
 */
export async function decide(
  params: RequestPermissionRequest,
  policy: PermissionPolicy,
  onRefused: (call: ToolCallUpdate, reason: string) => void = () => undefined,
): Promise<RequestPermissionResponse> {
  const reason = await refusalOf(params.toolCall, policy);
  if (reason === undefined) {
    const allow = pick(params.options, ['allow_once', 'allow_always']);
    return { outcome: allow ? { outcome: 'selected', optionId: allow.optionId } : { outcome: 'cancelled' } };
  }
  onRefused(params.toolCall, reason);
  const reject = pick(params.options, ['reject_once', 'reject_always']);
  return {
    outcome: reject ? { outcome: 'selected', optionId: reject.optionId } : { outcome: 'cancelled' },
    _meta: { reason },
  };
}

/** Why the call is refused, or undefined when the policy allows it. */
export async function refusalOf(call: ToolCallUpdate, policy: PermissionPolicy): Promise<string | undefined> {
  const kind = call.kind ?? 'other';
  const what = describe(call);
  const writes = changing.has(kind);
  if (policy.readOnly && !looking.has(kind)) {
    return `Refused ${what}: this session is read-only (knowledge generation and other read-only stages may read and search the workspace, not change files or run commands).`;
  }
  const paths = pathsOf(call);
  if (writes && paths.length === 0) {
    return `Refused ${what}: it names no file, so the workbench cannot check that it stays inside the workspace.`;
  }
  for (const path of paths) {
    const why = await outsideReason(policy.guard, path, writes ? 'write' : 'read');
    if (why) return `Refused ${what} on ${path}: ${why}`;
  }
  if (looking.has(kind) || writes || policy.commands.allow) return undefined;
  const invalid = policy.commands.invalid
    ? ` (${commandsSetting}="${policy.commands.invalid}" is neither "allow" nor "refuse")`
    : '';
  return (
    `Refused ${what}: an editor agent's commands, and tool calls the workbench cannot confine to the workspace, ` +
    `run as you outside any sandbox, so they are refused unless its runner config allows them${invalid}. ` +
    `To allow them on purpose, set ${commandsSetting}=allow in the runner config's env (Settings, "Runner Configs").`
  );
}

/** How a refusal names the call: the command it would run, else its title and kind. */
function describe(call: ToolCallUpdate): string {
  const input = call.rawInput as Record<string, unknown> | null | undefined;
  const command = typeof input?.command === 'string' ? input.command : undefined;
  if (call.kind === 'execute' && command) return `to run the command \`${clip(command)}\``;
  return `${call.title ? `'${clip(call.title)}'` : 'a tool call'} (${call.kind ?? 'no kind'})`;
}

/** Every path the call names: its locations, its diffs, and a file path in its input. */
function pathsOf(call: ToolCallUpdate): string[] {
  const input = call.rawInput as Record<string, unknown> | null | undefined;
  const fromInput = [input?.filePath, input?.filepath, input?.file_path, input?.path].filter(
    (value): value is string => typeof value === 'string' && value !== '',
  );
  const paths = [
    ...(call.locations ?? []).map((location) => location.path),
    ...(call.content ?? []).flatMap((item) => (item.type === 'diff' ? [item.path] : [])),
    ...fromInput,
  ];
  return [...new Set(paths)];
}

/** Why the guard refuses `path` for `mode` (outside the workspace, a protected path), else undefined. */
async function outsideReason(
  guard: PathGuard,
  path: string,
  mode: 'read' | 'write',
): Promise<string | undefined> {
  const outside =
    "it is outside the workspace (also through '..' or a symlink); the agent may reach only the task's workspace and its allowed roots.";
  // ACP paths are absolute: a relative one is nowhere in particular, so outside.
  if (!isAbsolute(path)) return outside;
  try {
    await guard.resolve(path, mode);
    return undefined;
  } catch (error) {
    if (!KeelError.is(error)) throw error;
    return error.details?.reason === 'protected_path' ? error.message : outside;
  }
}

function pick(options: PermissionOption[], kinds: PermissionOption['kind'][]): PermissionOption | undefined {
  for (const kind of kinds) {
    const option = options.find((each) => each.kind === kind);
    if (option) return option;
  }
  return undefined;
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
