import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { PlanEntry, SessionUpdate, ToolCallContent, ToolKind } from '@agentclientprotocol/sdk';
import { createCodingTools, type EditorFiles, type RuntimeEvent, type ToolTraits } from '@keel/runtime';

// Keel's tools, for their traits: how an editor shows a call, and whether it edits the file it names.
const catalogue = createCodingTools();

function traitsOf(name: string): ToolTraits {
  return catalogue.has(name) ? catalogue.traitsOf(name) : { kind: 'other', readOnly: false };
}

/** ACP's tool kinds are the traits' own, but for sub-agents (shown as `other`). */
function kindOf(name: string): ToolKind {
  const { kind } = traitsOf(name);
  return kind === 'agent' ? 'other' : kind;
}

interface PendingCall {
  name: string;
  path?: string;
  /** The file's text before an edit, as the tools see it (null: it did not exist). */
  before?: string | null;
  /** Announced (pending) before its permission request: its start is an update of that call. */
  announced?: boolean;
}

/** What `session/request_permission` shows of a call: the same id, kind, locations, input and diff. */
export interface PermissionToolCall {
  toolCallId: string;
  title: string;
  kind: ToolKind;
  status: 'pending';
  rawInput: Record<string, unknown>;
  locations?: { path: string }[];
  content?: ToolCallContent[];
}

/**
 * Turns one prompt turn's runtime events into the Agent Client Protocol's `session/update`s: text and
 * thinking chunks, tool calls with their kind, locations and (for edits) a diff, and `todo_write` as a plan.
 */
export class ToolUpdates {
  readonly #workdir: string;
  readonly #calls = new Map<string, PendingCall>();
  /** Why the session's mode leaves a tool out (read-only), for a call of it the run refused. */
  readonly #refusal: (name: string) => string | undefined;
  /** The editor when it is the tools' view of the files (`editorFilesOf`): diffs are of its text, not the disk's. */
  readonly #editor: EditorFiles | undefined;

  constructor(
    workdir: string,
    refusal: (name: string) => string | undefined = () => undefined,
    editor?: EditorFiles,
  ) {
    this.#workdir = workdir;
    this.#refusal = refusal;
    this.#editor = editor;
  }

  async of(event: RuntimeEvent): Promise<SessionUpdate[]> {
    switch (event.type) {
      case 'text_delta':
        return [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.content } }];
      case 'thinking':
        return [{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: event.content } }];
      case 'tool_call':
        return this.#started(event.tool_call_id, event.tool_name, event.args);
      case 'tool_result':
        return this.#ended(event.tool_call_id, event.tool_name, event.result);
      default:
        return [];
    }
  }

  /**
   * A call that waits for the user's permission, announced before it is asked about: the `tool_call`
   * (pending) to send now, and what the permission request shows of it, with the diff it would make for an
   * edit or a write, so the editor shows the change before the user approves it.
   */
  async announce(
    id: string,
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ update: SessionUpdate; toolCall: PermissionToolCall }> {
    const call = await this.#remember(id, name, args);
    call.announced = true;
    const proposed =
      call.path && call.before !== undefined ? proposedText(name, args, call.before) : undefined;
    const toolCall: PermissionToolCall = {
      toolCallId: id,
      title: titleOf(name, args),
      kind: kindOf(name),
      status: 'pending',
      rawInput: args,
      ...(call.path ? { locations: [{ path: call.path }] } : {}),
      ...(call.path && proposed !== undefined
        ? { content: [{ type: 'diff', path: call.path, oldText: call.before ?? null, newText: proposed }] }
        : {}),
    };
    return { update: { sessionUpdate: 'tool_call', ...toolCall }, toolCall };
  }

  async #remember(id: string, name: string, args: Record<string, unknown>): Promise<PendingCall> {
    const path = typeof args.path === 'string' ? this.#absolute(args.path) : undefined;
    const call: PendingCall = { name, ...(path ? { path } : {}) };
    if (path && traitsOf(name).writesFiles) {
      const before = await this.#textOf(path, 'before');
      if (before !== undefined) call.before = before;
    }
    this.#calls.set(id, call);
    return call;
  }

  async #started(id: string, name: string, args: Record<string, unknown>): Promise<SessionUpdate[]> {
    const known = this.#calls.get(id);
    if (known?.announced) {
      // Announced with its permission request: now it runs.
      const plan = planOf(name, args);
      return [
        { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'in_progress' },
        ...(plan ? [{ sessionUpdate: 'plan' as const, entries: plan }] : []),
      ];
    }
    const call = await this.#remember(id, name, args);
    const path = call.path;
    const updates: SessionUpdate[] = [
      {
        sessionUpdate: 'tool_call',
        toolCallId: id,
        title: titleOf(name, args),
        kind: kindOf(name),
        status: 'in_progress',
        rawInput: args,
        ...(path ? { locations: [{ path }] } : {}),
      },
    ];
    const plan = planOf(name, args);
    if (plan) updates.push({ sessionUpdate: 'plan', entries: plan });
    return updates;
  }

  async #ended(id: string, name: string, result: string): Promise<SessionUpdate[]> {
    const call = this.#calls.get(id) ?? { name };
    this.#calls.delete(id);
    const failed = /^(?:Error|Not run)\b/.test(result);
    const content: ToolCallContent[] = [{ type: 'content', content: { type: 'text', text: result } }];
    // The run only says the tool does not exist; the editor's user learns which mode left it out and why.
    const refused = failed ? this.#refusal(name) : undefined;
    if (refused) content.unshift({ type: 'content', content: { type: 'text', text: `Refused: ${refused}` } });
    if (!failed && call.path && call.before !== undefined) {
      const after = await this.#textOf(call.path, 'after');
      if (after !== undefined && after !== null && after !== call.before) {
        content.unshift({ type: 'diff', path: call.path, oldText: call.before, newText: after });
      }
    }
    return [
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: id,
        status: failed ? 'failed' : 'completed',
        content,
        rawOutput: { result },
      },
    ];
  }

  /**
   * The file's text as the tools see it: the editor's when it is their view (for the text after a change only
   * when the change went to it, since an editor that only reads may not have reloaded the disk yet), else the
   * disk's. null: no such file; undefined: unknown (the editor refused), so no diff is shown.
   */
  async #textOf(path: string, when: 'before' | 'after'): Promise<string | null | undefined> {
    const editor = this.#editor;
    if (editor && (when === 'before' || editor.writeText)) {
      return editor.readText(path).then(
        (text) => text ?? null,
        () => undefined,
      );
    }
    return readFile(path, 'utf8').catch(() => null);
  }

  #absolute(path: string): string {
    return isAbsolute(path) ? path : resolve(this.#workdir, path);
  }
}

/** A short title an editor lists the call under: the command, the path or the query. */
function titleOf(name: string, args: Record<string, unknown>): string {
  const detail = [args.command, args.path, args.pattern, args.url, args.query].find(
    (value) => typeof value === 'string',
  );
  const text = typeof detail === 'string' ? `${name}: ${detail}` : name;
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** `todo_write`'s list as an ACP plan. */
function planOf(name: string, args: Record<string, unknown>): PlanEntry[] | undefined {
  if (name !== 'todo_write' || !Array.isArray(args.todos)) return undefined;
  return args.todos.flatMap((todo: unknown) => {
    const { content, status } = (todo ?? {}) as { content?: unknown; status?: unknown };
    if (typeof content !== 'string') return [];
    const known = status === 'in_progress' || status === 'completed' ? status : 'pending';
    return [{ content, status: known, priority: 'medium' as const }];
  });
}

/** The file's text after the edit or write a call asks for; undefined when it cannot be told in advance. */
function proposedText(
  name: string,
  args: Record<string, unknown>,
  before: string | null,
): string | undefined {
  if (name === 'write_file' && typeof args.content === 'string') return args.content;
  if (name === 'edit_file' && before !== null) {
    const { old_text: oldText, new_text: newText, replace_all: all } = args;
    if (typeof oldText !== 'string' || typeof newText !== 'string' || !oldText || !before.includes(oldText)) {
      return undefined;
    }
    return all === true ? before.split(oldText).join(newText) : before.replace(oldText, () => newText);
  }
  return undefined;
}
