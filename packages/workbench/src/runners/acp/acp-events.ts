import { relative, resolve } from 'node:path';
import type {
  ToolKind as AcpToolKind,
  SessionUpdate,
  ToolCallContent,
  ToolCallLocation,
  ToolCallUpdate,
} from '@agentclientprotocol/sdk';
import { toolKindOfDeclared } from '@keel/protocol/workbench';
import type { PathGuard } from '@keel/runtime';
import type { RunnerEvent, ToolKind } from '../contract.ts';

interface ToolState {
  id: string;
  name: string;
  acpKind?: AcpToolKind | null | undefined;
  args: Record<string, unknown>;
  locations: ToolCallLocation[];
  announced: boolean;
  finished: boolean;
}

type ToolFields = Extract<SessionUpdate, { sessionUpdate: 'tool_call_update' }>;

/**
 * Turns one prompt turn's `session/update` notifications into normalised runner events. A tool call is
 * announced once its input is known (agents such as opencode first send an empty 'pending' call, then its
 * input in an update), and its result follows when it completes or fails.
 */
export class AcpEventMapper {
  readonly #guard: PathGuard;
  readonly #mcpPrefixes: string[];
  readonly #tools = new Map<string, ToolState>();
  /** The assistant's text of this turn: the outcome's output. */
  text = '';

  constructor(guard: PathGuard, mcpServerNames: readonly string[]) {
    this.#guard = guard;
    // How agents name MCP tools: opencode `<server>_<tool>`, Claude-style `mcp__<server>__<tool>`.
    this.#mcpPrefixes = mcpServerNames.flatMap((name) => [`${name}_`, `mcp__${name}__`, `${name}/`]);
  }

  map(update: SessionUpdate): RunnerEvent[] {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk': {
        const text = textOf(update.content);
        if (!text) return [];
        this.text += text;
        return [{ type: 'text_delta', content: text }];
      }
      case 'agent_thought_chunk': {
        const text = textOf(update.content);
        return text ? [{ type: 'thinking', content: text }] : [];
      }
      case 'plan': {
        const lines = update.entries.map((entry) => `- [${entry.status}] ${entry.content}`);
        return lines.length ? [{ type: 'thinking', content: `Plan:\n${lines.join('\n')}` }] : [];
      }
      case 'tool_call':
      case 'tool_call_update':
        return this.#tool(update);
      default:
        return [];
    }
  }

  /** Tool calls announced without input that never got any: announced at the end so none is lost. */
  flush(): RunnerEvent[] {
    return [...this.#tools.values()].filter((tool) => !tool.announced).map((tool) => this.#announce(tool));
  }

  /**
   * A call whose permission the workbench refused: announced (if the agent had not yet) and ended failed,
   * with the reason as its result, so the log shows what was refused, why and how to allow it.
   */
  refused(call: ToolCallUpdate, reason: string): RunnerEvent[] {
    const events = this.#tool({ ...call, sessionUpdate: 'tool_call_update', status: undefined });
    const tool = this.#tools.get(call.toolCallId) as ToolState;
    if (!tool.announced) events.push(this.#announce(tool));
    if (!tool.finished) events.push(this.#finish(tool, false, reason));
    return events;
  }

  /** The one result of a tool call: it ends it. */
  #finish(tool: ToolState, ok: boolean, result: string): RunnerEvent {
    tool.finished = true;
    return {
      type: 'tool_result',
      tool_call_id: tool.id,
      tool_name: tool.name,
      kind: this.#kindOf(tool),
      ok,
      result,
    };
  }

  #tool(update: ToolFields | Extract<SessionUpdate, { sessionUpdate: 'tool_call' }>): RunnerEvent[] {
    let tool = this.#tools.get(update.toolCallId);
    if (!tool) {
      tool = {
        id: update.toolCallId,
        name: update.name || update.title || 'tool',
        args: {},
        locations: [],
        announced: false,
        finished: false,
      };
      this.#tools.set(tool.id, tool);
    }
    if (update.name) tool.name = update.name;
    if (update.kind) tool.acpKind = update.kind;
    if (isRecord(update.rawInput) && Object.keys(update.rawInput).length > 0) tool.args = update.rawInput;
    if (update.locations?.length) tool.locations = update.locations;
    const events: RunnerEvent[] = [];
    const status = update.status;
    const hasInput = Object.keys(tool.args).length > 0 || tool.locations.length > 0;
    if (!tool.announced && (hasInput || (status && status !== 'pending'))) {
      events.push(this.#announce(tool));
    }
    if ((status === 'completed' || status === 'failed') && !tool.finished) {
      events.push(this.#finish(tool, status === 'completed', resultOf(update.content, update.rawOutput)));
    }
    return events;
  }

  #announce(tool: ToolState): RunnerEvent {
    tool.announced = true;
    const kind = this.#kindOf(tool);
    const path = this.#pathOf(tool, kind);
    return {
      type: 'tool_call',
      tool_call_id: tool.id,
      tool_name: tool.name,
      kind,
      args: tool.args,
      ...(path ? { path } : {}),
    };
  }

  #kindOf(tool: ToolState): ToolKind {
    if (this.#mcpPrefixes.some((prefix) => tool.name.startsWith(prefix))) return 'mcp';
    if (tool.acpKind === 'think' && tool.name.startsWith('todo')) return 'todo';
    return toolKindOfDeclared(tool.acpKind);
  }

  /** The file the call touches, relative to the workdir: its first location, else a path in its input. */
  #pathOf(tool: ToolState, kind: ToolKind): string | undefined {
    const given =
      tool.locations[0]?.path ??
      (kind === 'file_read' || kind === 'file_edit'
        ? [tool.args.filePath, tool.args.file_path, tool.args.path].find((value) => typeof value === 'string')
        : undefined);
    if (typeof given !== 'string' || !given) return undefined;
    // Shown relative to the root holding it (the workdir first), else as given.
    const root = this.#guard.rootOf(resolve(given));
    return root ? relative(root, resolve(given)) || '.' : given;
  }
}

function textOf(block: { type: string; text?: string }): string {
  return block.type === 'text' && typeof block.text === 'string' ? block.text : '';
}

/** The tool's result as text: its text content, else its raw output. */
function resultOf(content: ToolCallContent[] | null | undefined, rawOutput: unknown): string {
  const parts = (content ?? []).flatMap((item) => {
    if (item.type === 'content') return textOf(item.content) ? [textOf(item.content)] : [];
    if (item.type === 'diff') return [`Edited ${item.path}`];
    return [];
  });
  if (parts.length > 0) return parts.join('\n');
  if (isRecord(rawOutput) && typeof rawOutput.output === 'string') return rawOutput.output;
  if (typeof rawOutput === 'string') return rawOutput;
  return rawOutput === undefined ? '' : JSON.stringify(rawOutput);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
