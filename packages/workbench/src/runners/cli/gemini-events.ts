import type { RunnerErrorObject, RunnerEvent, RunnerUsage, ToolKind } from '../contract.ts';
import { toolPathOf } from '../tool-kind.ts';
import type { AgentEventMapper } from './agent.ts';
import { num, obj, str, textOf } from './json-lines.ts';

const kinds: Readonly<Record<string, ToolKind>> = {
  replace: 'file_edit',
  edit: 'file_edit',
  write_file: 'file_edit',
  read_file: 'file_read',
  read_many_files: 'file_read',
  run_shell_command: 'command',
  grep_search: 'search',
  search_file_content: 'search',
  glob: 'search',
  list_directory: 'search',
  web_fetch: 'web',
  google_web_search: 'web',
  write_todos: 'todo',
  enter_plan_mode: 'plan',
  exit_plan_mode: 'plan',
};

/**
 * Gemini CLI's stream-json: `init` (session id), `message` (the user's, then the assistant's in `delta`
 * pieces), `tool_use`, `tool_result` (status and output or error), `error` (warning or error) and `result`
 * (status, stats with the token counts). Assistant pieces go out as text_delta at once and as one `message`
 * when the text ends (before a tool call, at the end).
 */
export class GeminiEventMapper implements AgentEventMapper {
  sessionId: string | undefined;
  output = '';
  usage: RunnerUsage | undefined;
  error: RunnerErrorObject | undefined;
  readonly #workdirs: readonly string[];
  readonly #mcpServers: readonly string[];
  readonly #tools = new Map<string, string>();
  #text = '';

  constructor(workdirs: readonly string[], mcpServers: readonly string[]) {
    this.#workdirs = workdirs;
    this.#mcpServers = mcpServers;
  }

  map(event: Record<string, unknown>): RunnerEvent[] {
    switch (event.type) {
      case 'init':
        this.sessionId = str(event.session_id) ?? this.sessionId;
        return [
          {
            type: 'runner_started',
            runner: 'gemini',
            ...(this.sessionId ? { runner_session_id: this.sessionId } : {}),
          },
        ];
      case 'message': {
        if (event.role !== 'assistant') return [];
        const content = str(event.content) ?? '';
        if (event.delta !== true) return [...this.#flush(), ...this.#message(content)];
        this.#text += content;
        return [{ type: 'text_delta', content }];
      }
      case 'tool_use':
        return [...this.#flush(), this.#toolCall(event)];
      case 'tool_result': {
        const id = str(event.tool_id) ?? '';
        const name = this.#tools.get(id) ?? 'unknown';
        const ok = event.status === 'success';
        const result = ok
          ? textOf(event.output)
          : textOf(str(obj(event.error)?.message) ?? event.output ?? 'failed');
        return [
          { type: 'tool_result', tool_call_id: id, tool_name: name, kind: this.#kindOf(name), ok, result },
        ];
      }
      case 'error':
        // Warnings (a loop the CLI noticed, a retry) do not end the run; errors do, and the result says so.
        if (event.severity === 'warning') return [];
        return this.#failed(str(event.message) ?? 'Gemini CLI reported an error.');
      case 'result':
        return [...this.#flush(), ...this.#result(event)];
      default:
        return [];
    }
  }

  finish(): RunnerEvent[] {
    return this.#flush();
  }

  #flush(): RunnerEvent[] {
    if (!this.#text) return [];
    const text = this.#text;
    this.#text = '';
    return this.#message(text);
  }

  #message(text: string): RunnerEvent[] {
    this.output = text;
    return [{ type: 'message', role: 'assistant', content: text }];
  }

  #toolCall(event: Record<string, unknown>): RunnerEvent {
    const id = str(event.tool_id) ?? '';
    const name = str(event.tool_name) ?? 'unknown';
    this.#tools.set(id, name);
    const args = obj(event.parameters) ?? {};
    const kind = this.#kindOf(name);
    const path = toolPathOf(
      kind,
      { path: args.file_path ?? args.absolute_path ?? args.path },
      this.#workdirs,
    );
    return { type: 'tool_call', tool_call_id: id, tool_name: name, kind, args, ...(path ? { path } : {}) };
  }

  #kindOf(name: string): ToolKind {
    const known = kinds[name];
    if (known) return known;
    // MCP tools are named `mcp_<server>_<tool>`, or `<server>__<tool>` in older versions.
    const mcp = name.startsWith('mcp_') || this.#mcpServers.some((server) => name.startsWith(`${server}__`));
    return mcp ? 'mcp' : 'other';
  }

  #result(event: Record<string, unknown>): RunnerEvent[] {
    const events: RunnerEvent[] = [];
    const stats = obj(event.stats);
    if (stats) {
      const input = num(stats.input_tokens) ?? num(stats.input) ?? 0;
      const output = num(stats.output_tokens) ?? 0;
      this.usage = {
        input_tokens: input,
        output_tokens: output,
        total_tokens: num(stats.total_tokens) ?? input + output,
      };
      events.push({ type: 'usage', usage: this.usage });
    }
    if (event.status !== 'success') {
      events.push(
        ...this.#failed(
          str(obj(event.error)?.message) ?? `Gemini CLI ended with status ${str(event.status) ?? '?'}.`,
        ),
      );
    }
    return events;
  }

  #failed(message: string): RunnerEvent[] {
    if (this.error?.message === message) return [];
    this.error = { code: 'RUNNER_FAILED', message };
    return [{ type: 'error', error: this.error }];
  }
}
