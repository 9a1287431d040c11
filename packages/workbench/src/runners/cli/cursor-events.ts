import type { RunnerErrorObject, RunnerEvent, RunnerUsage, ToolKind } from '../contract.ts';
import { toolPathOf } from '../tool-kind.ts';
import type { AgentEventMapper } from './agent.ts';
import { arr, num, obj, str, textOf } from './json-lines.ts';

/** Cursor's tool call keys (`readToolCall`, `editToolCall`, …) by what they do. */
const kinds: Readonly<Record<string, ToolKind>> = {
  read: 'file_read',
  edit: 'file_edit',
  write: 'file_edit',
  delete: 'file_edit',
  shell: 'command',
  grep: 'search',
  glob: 'search',
  ls: 'search',
  codebaseSearch: 'search',
  semSearch: 'search',
  webFetch: 'web',
  webSearch: 'web',
  updateTodos: 'todo',
  readTodos: 'todo',
  todo: 'todo',
  mcp: 'mcp',
};

/**
 * Cursor's documented stream-json, the Claude Code family: `system` init (session id), `user`,
 * `assistant` (text), `thinking` deltas, `tool_call` `started`/`completed` with one `<name>ToolCall` key
 * (args, and at completion a result of `success` or `error`/`rejected`), and `result` (final text, is_error).
 */
export class CursorEventMapper implements AgentEventMapper {
  sessionId: string | undefined;
  output = '';
  usage: RunnerUsage | undefined;
  error: RunnerErrorObject | undefined;
  readonly #workdirs: readonly string[];
  readonly #announced = new Set<string>();
  #thinking = '';

  constructor(workdirs: readonly string[]) {
    this.#workdirs = workdirs;
  }

  map(event: Record<string, unknown>): RunnerEvent[] {
    switch (event.type) {
      case 'system':
        if (event.subtype !== 'init') return [];
        this.sessionId = str(event.session_id) ?? this.sessionId;
        return [
          {
            type: 'runner_started',
            runner: 'cursor',
            ...(this.sessionId ? { runner_session_id: this.sessionId } : {}),
          },
        ];
      case 'assistant': {
        const text = arr(obj(event.message)?.content)
          .map((block) => (obj(block)?.type === 'text' ? (str(obj(block)?.text) ?? '') : ''))
          .join('');
        return text ? [...this.#flushThinking(), { type: 'message', role: 'assistant', content: text }] : [];
      }
      case 'thinking':
        // Deltas, then a `completed` marker: one thinking event per thought.
        if (event.subtype === 'delta') this.#thinking += str(event.text) ?? '';
        return event.subtype === 'completed' ? this.#flushThinking() : [];
      case 'tool_call':
        return [...this.#flushThinking(), ...this.#toolCall(event)];
      case 'result':
        return [...this.#flushThinking(), ...this.#result(event)];
      default:
        return [];
    }
  }

  finish(): RunnerEvent[] {
    return this.#flushThinking();
  }

  #flushThinking(): RunnerEvent[] {
    if (!this.#thinking) return [];
    const content = this.#thinking;
    this.#thinking = '';
    return [{ type: 'thinking', content }];
  }

  #toolCall(event: Record<string, unknown>): RunnerEvent[] {
    const id = str(event.call_id) ?? '';
    const wrapper = obj(event.tool_call) ?? {};
    const key = Object.keys(wrapper)[0] ?? 'unknown';
    const inner = obj(wrapper[key]) ?? {};
    // `function` calls (MCP and others) carry their own name and JSON arguments.
    const isFunction = key === 'function';
    const name = isFunction ? (str(inner.name) ?? 'function') : key.replace(/ToolCall$/, '');
    const args = isFunction ? parsedArguments(inner.arguments) : (obj(inner.args) ?? {});
    const kind: ToolKind = kinds[name] ?? (name.startsWith('mcp') ? 'mcp' : 'other');
    const events: RunnerEvent[] = [];
    if (!this.#announced.has(id)) {
      this.#announced.add(id);
      const path = toolPathOf(kind, { path: args.path ?? args.file_path }, this.#workdirs);
      events.push({
        type: 'tool_call',
        tool_call_id: id,
        tool_name: name,
        kind,
        args,
        ...(path ? { path } : {}),
      });
    }
    if (event.subtype === 'completed') {
      const result = obj(inner.result) ?? {};
      const success = obj(result.success);
      const failure = result.error ?? result.failure ?? result.rejected;
      events.push({
        type: 'tool_result',
        tool_call_id: id,
        tool_name: name,
        kind,
        ok: success !== undefined && failure === undefined,
        result: success
          ? successText(success)
          : textOf(str(obj(failure)?.message) ?? failure ?? inner.result),
      });
    }
    return events;
  }

  #result(event: Record<string, unknown>): RunnerEvent[] {
    this.sessionId = str(event.session_id) ?? this.sessionId;
    const events: RunnerEvent[] = [];
    const usage = obj(event.usage);
    if (usage) {
      const input = num(usage.inputTokens) ?? num(usage.input_tokens) ?? 0;
      const output = num(usage.outputTokens) ?? num(usage.output_tokens) ?? 0;
      this.usage = { input_tokens: input, output_tokens: output, total_tokens: input + output };
      events.push({ type: 'usage', usage: this.usage });
    }
    const result = str(event.result) ?? '';
    if (event.is_error === true || (str(event.subtype) ?? 'success') !== 'success') {
      this.error = {
        code: 'RUNNER_FAILED',
        message: result || `Cursor ended with ${str(event.subtype) ?? 'an error'}.`,
      };
      events.push({ type: 'error', error: this.error });
    } else {
      this.output = result;
    }
    return events;
  }
}

function parsedArguments(value: unknown): Record<string, unknown> {
  if (typeof value !== 'string') return obj(value) ?? {};
  try {
    return obj(JSON.parse(value)) ?? { arguments: value };
  } catch {
    return { arguments: value };
  }
}

/** A success result as text: what a reader wants first (content, output, the path written), else JSON. */
function successText(success: Record<string, unknown>): string {
  const text = str(success.content) ?? str(success.stdout) ?? str(success.output);
  if (text !== undefined) return text;
  return textOf(success);
}
