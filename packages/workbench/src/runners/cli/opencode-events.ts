import type { RunnerErrorObject, RunnerEvent, RunnerUsage, ToolKind } from '../contract.ts';
import { toolPathOf } from '../tool-kind.ts';
import type { AgentEventMapper } from './agent.ts';
import { num, obj, str, textOf } from './json-lines.ts';

const kinds: Readonly<Record<string, ToolKind>> = {
  edit: 'file_edit',
  write: 'file_edit',
  patch: 'file_edit',
  multiedit: 'file_edit',
  apply_patch: 'file_edit',
  read: 'file_read',
  bash: 'command',
  grep: 'search',
  glob: 'search',
  list: 'search',
  codesearch: 'search',
  webfetch: 'web',
  websearch: 'web',
  todowrite: 'todo',
  todoread: 'todo',
  plan_enter: 'plan',
  plan_exit: 'plan',
};

/**
 * opencode's `run --format json` events, each `{type, sessionID, part}`: `step_start`, `text`, `reasoning`,
 * `tool_use` (sent once the tool finished: input, output or error together), `step_finish` (tokens and cost
 * of that step, summed into one usage event at the end) and `error`.
 */
export class OpencodeEventMapper implements AgentEventMapper {
  sessionId: string | undefined;
  output = '';
  usage: RunnerUsage | undefined;
  error: RunnerErrorObject | undefined;
  readonly #workdirs: readonly string[];
  readonly #mcpServers: readonly string[];

  constructor(workdirs: readonly string[], mcpServers: readonly string[]) {
    this.#workdirs = workdirs;
    this.#mcpServers = mcpServers;
  }

  map(event: Record<string, unknown>): RunnerEvent[] {
    const events: RunnerEvent[] = [];
    const sessionId = str(event.sessionID);
    if (sessionId && !this.sessionId) {
      this.sessionId = sessionId;
      events.push({ type: 'runner_started', runner: 'opencode', runner_session_id: sessionId });
    }
    const part = obj(event.part) ?? {};
    switch (event.type) {
      case 'text': {
        const text = str(part.text) ?? '';
        this.output = text;
        events.push({ type: 'message', role: 'assistant', content: text });
        break;
      }
      case 'reasoning':
        events.push({ type: 'thinking', content: str(part.text) ?? '' });
        break;
      case 'tool_use':
        events.push(...this.#tool(part));
        break;
      case 'step_finish':
        this.#addUsage(obj(part.tokens), num(part.cost));
        break;
      case 'error': {
        const error = obj(event.error);
        const message =
          str(obj(error?.data)?.message) ??
          str(error?.message) ??
          str(error?.name) ??
          'opencode reported an error.';
        this.error = { code: 'RUNNER_FAILED', message };
        events.push({ type: 'error', error: this.error });
        break;
      }
    }
    return events;
  }

  finish(): RunnerEvent[] {
    return this.usage ? [{ type: 'usage', usage: this.usage }] : [];
  }

  #tool(part: Record<string, unknown>): RunnerEvent[] {
    const toolName = str(part.tool) ?? 'unknown';
    const id = str(part.callID) ?? str(part.id) ?? '';
    const state = obj(part.state) ?? {};
    const args = obj(state.input) ?? {};
    const kind = this.#kindOf(toolName);
    const path = toolPathOf(kind, { path: args.filePath ?? args.path }, this.#workdirs);
    const status = str(state.status);
    return [
      { type: 'tool_call', tool_call_id: id, tool_name: toolName, kind, args, ...(path ? { path } : {}) },
      {
        type: 'tool_result',
        tool_call_id: id,
        tool_name: toolName,
        kind,
        ok: status === 'completed',
        result: textOf(state.output ?? state.error ?? status),
      },
    ];
  }

  #kindOf(toolName: string): ToolKind {
    const known = kinds[toolName];
    if (known) return known;
    // opencode names an MCP tool `<server>_<tool>`.
    return this.#mcpServers.some((server) => toolName.startsWith(`${server}_`)) ? 'mcp' : 'other';
  }

  #addUsage(tokens: Record<string, unknown> | undefined, cost: number | undefined): void {
    if (!tokens && cost === undefined) return;
    const input = (this.usage?.input_tokens ?? 0) + (num(tokens?.input) ?? 0);
    const output =
      (this.usage?.output_tokens ?? 0) + (num(tokens?.output) ?? 0) + (num(tokens?.reasoning) ?? 0);
    const costUsd = (this.usage?.cost_usd ?? 0) + (cost ?? 0);
    this.usage = {
      input_tokens: input,
      output_tokens: output,
      total_tokens: input + output,
      cost_usd: costUsd,
    };
  }
}
