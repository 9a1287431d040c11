import type { RunnerErrorObject, RunnerEvent, RunnerUsage, ToolKind } from '../contract.ts';
import { toolPathOf } from '../tool-kind.ts';
import type { AgentEventMapper } from './agent.ts';
import { arr, num, obj, str, textOf } from './json-lines.ts';

/**
 * Codex's `exec --json` events: `thread.started`, `turn.started`, `item.started|updated|completed` (items:
 * agent_message, reasoning, command_execution, file_change, mcp_tool_call, web_search, todo_list, error),
 * `turn.completed` (usage), `turn.failed`, `error`.
 */
export class CodexEventMapper implements AgentEventMapper {
  sessionId: string | undefined;
  output = '';
  usage: RunnerUsage | undefined;
  error: RunnerErrorObject | undefined;
  readonly #workdirs: readonly string[];
  /** Items whose tool_call was sent at item.started, so item.completed sends only the result. */
  readonly #announced = new Set<string>();

  constructor(workdirs: readonly string[]) {
    this.#workdirs = workdirs;
  }

  map(event: Record<string, unknown>): RunnerEvent[] {
    switch (event.type) {
      case 'thread.started':
        this.sessionId = str(event.thread_id) ?? this.sessionId;
        return [
          {
            type: 'runner_started',
            runner: 'codex',
            ...(this.sessionId ? { runner_session_id: this.sessionId } : {}),
          },
        ];
      case 'item.started':
        return this.#started(obj(event.item) ?? {});
      case 'item.completed':
        return this.#completed(obj(event.item) ?? {});
      case 'turn.completed':
        return this.#usage(obj(event.usage));
      case 'turn.failed':
        return this.#failed(str(obj(event.error)?.message) ?? 'The turn failed.');
      case 'error': {
        const message = str(event.message) ?? 'Codex reported an error.';
        // Codex says so while it retries a dropped stream; the turn fails later if it gives up.
        const retry = /^Reconnecting\.*\s*(\d+)\/(\d+)/.exec(message);
        if (retry)
          return [
            { type: 'retry', attempt: Number(retry[1]), max_attempts: Number(retry[2]), error: message },
          ];
        return this.#failed(message);
      }
      default:
        return [];
    }
  }

  finish(): RunnerEvent[] {
    return [];
  }

  #started(item: Record<string, unknown>): RunnerEvent[] {
    const call = this.#toolCall(item);
    if (!call) return [];
    this.#announced.add(call.tool_call_id);
    return [call];
  }

  #completed(item: Record<string, unknown>): RunnerEvent[] {
    switch (item.type) {
      case 'agent_message': {
        const text = str(item.text) ?? '';
        this.output = text;
        return [{ type: 'message', role: 'assistant', content: text }];
      }
      case 'reasoning':
        return [{ type: 'thinking', content: str(item.text) ?? '' }];
      case 'error':
        // A warning that does not stop the turn (unknown model metadata, an ignored setting).
        return [];
      default: {
        const call = this.#toolCall(item);
        if (!call) return [];
        const events: RunnerEvent[] = this.#announced.has(call.tool_call_id) ? [] : [call];
        const status = str(item.status);
        const exitCode = num(item.exit_code);
        const ok = status !== 'failed' && status !== 'declined' && (exitCode === undefined || exitCode === 0);
        events.push({
          type: 'tool_result',
          tool_call_id: call.tool_call_id,
          tool_name: call.tool_name,
          kind: call.kind,
          ok,
          result: resultOf(item),
        });
        return events;
      }
    }
  }

  #toolCall(item: Record<string, unknown>): Extract<RunnerEvent, { type: 'tool_call' }> | undefined {
    const id = str(item.id) ?? '';
    const call = (tool_name: string, kind: ToolKind, args: Record<string, unknown>, path?: string) =>
      ({ type: 'tool_call', tool_call_id: id, tool_name, kind, args, ...(path ? { path } : {}) }) as const;
    switch (item.type) {
      case 'command_execution':
        return call('command_execution', 'command', { command: str(item.command) ?? '' });
      case 'file_change': {
        const changes = arr(item.changes).map((change) => ({
          path: str(obj(change)?.path) ?? '',
          kind: str(obj(change)?.kind) ?? 'update',
        }));
        const path = changes[0]?.path
          ? toolPathOf('file_edit', { path: changes[0].path }, this.#workdirs)
          : undefined;
        return call('file_change', 'file_edit', { changes }, path);
      }
      case 'mcp_tool_call':
        return call(
          `mcp__${str(item.server) ?? ''}__${str(item.tool) ?? ''}`,
          'mcp',
          obj(item.arguments) ?? {},
        );
      case 'web_search':
        return call('web_search', 'web', { query: str(item.query) ?? '' });
      case 'todo_list':
        return call('todo_list', 'todo', { items: arr(item.items) });
      default:
        return undefined;
    }
  }

  #usage(usage: Record<string, unknown> | undefined): RunnerEvent[] {
    if (!usage) return [];
    const input = (this.usage?.input_tokens ?? 0) + (num(usage.input_tokens) ?? 0);
    const output = (this.usage?.output_tokens ?? 0) + (num(usage.output_tokens) ?? 0);
    this.usage = { input_tokens: input, output_tokens: output, total_tokens: input + output };
    return [{ type: 'usage', usage: this.usage }];
  }

  #failed(message: string): RunnerEvent[] {
    // Codex sends the same failure as `error` and then as `turn.failed`: one event is enough.
    if (this.error?.message === message) return [];
    this.error = { code: 'RUNNER_FAILED', message };
    return [{ type: 'error', error: this.error }];
  }
}

function resultOf(item: Record<string, unknown>): string {
  switch (item.type) {
    case 'command_execution':
      return str(item.aggregated_output) ?? '';
    case 'file_change':
      return arr(item.changes)
        .map((change) => `${str(obj(change)?.kind) ?? 'update'} ${str(obj(change)?.path) ?? ''}`)
        .join('\n');
    case 'mcp_tool_call':
      return textOf(obj(item.error)?.message ?? obj(item.result)?.content ?? item.result);
    default:
      return textOf(item.status);
  }
}
