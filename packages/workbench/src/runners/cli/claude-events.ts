import type { RunnerErrorObject, RunnerEvent, RunnerUsage, ToolKind } from '../contract.ts';
import { toolPathOf } from '../tool-kind.ts';
import type { AgentEventMapper } from './agent.ts';
import { arr, num, obj, str, textOf } from './json-lines.ts';

const kinds: Readonly<Record<string, ToolKind>> = {
  Edit: 'file_edit',
  Write: 'file_edit',
  MultiEdit: 'file_edit',
  NotebookEdit: 'file_edit',
  Read: 'file_read',
  Bash: 'command',
  BashOutput: 'command',
  KillShell: 'command',
  Grep: 'search',
  Glob: 'search',
  LS: 'search',
  WebFetch: 'web',
  WebSearch: 'web',
  TodoWrite: 'todo',
  ExitPlanMode: 'plan',
  EnterPlanMode: 'plan',
};

/** What a Claude Code (or Cursor: same names for the shared ones) tool does, from its name. */
export function claudeToolKindOf(name: string): ToolKind {
  if (name.startsWith('mcp__')) return 'mcp';
  return kinds[name] ?? 'other';
}

/**
 * Claude Code's stream-json: `system` (`init` with the session id, `api_retry`), `assistant` messages
 * (text, thinking, tool_use blocks), `user` messages carrying tool_result blocks, and `result` (the final
 * text, usage, cost, is_error).
 */
export class ClaudeEventMapper implements AgentEventMapper {
  sessionId: string | undefined;
  output = '';
  usage: RunnerUsage | undefined;
  error: RunnerErrorObject | undefined;
  readonly #workdirs: readonly string[];
  /** Tool names by call id: a tool_result names only the id. */
  readonly #tools = new Map<string, string>();

  constructor(workdirs: readonly string[]) {
    this.#workdirs = workdirs;
  }

  map(event: Record<string, unknown>): RunnerEvent[] {
    switch (event.type) {
      case 'system':
        return this.#system(event);
      case 'assistant':
        return arr(obj(event.message)?.content).flatMap((block) => this.#assistantBlock(obj(block) ?? {}));
      case 'user':
        return arr(obj(event.message)?.content).flatMap((block) => this.#userBlock(obj(block) ?? {}));
      case 'result':
        return this.#result(event);
      default:
        return [];
    }
  }

  finish(): RunnerEvent[] {
    return [];
  }

  #system(event: Record<string, unknown>): RunnerEvent[] {
    if (event.subtype === 'init') {
      this.sessionId = str(event.session_id) ?? this.sessionId;
      return [
        {
          type: 'runner_started',
          runner: 'claude-code',
          ...(this.sessionId ? { runner_session_id: this.sessionId } : {}),
        },
      ];
    }
    if (event.subtype === 'api_retry') {
      return [
        {
          type: 'retry',
          attempt: num(event.attempt) ?? 0,
          max_attempts: num(event.max_retries) ?? 0,
          error: `${str(event.error) ?? 'error'} (HTTP ${num(event.error_status) ?? '?'})`,
        },
      ];
    }
    return [];
  }

  #assistantBlock(block: Record<string, unknown>): RunnerEvent[] {
    switch (block.type) {
      case 'text':
        return [{ type: 'message', role: 'assistant', content: str(block.text) ?? '' }];
      case 'thinking':
        return [{ type: 'thinking', content: str(block.thinking) ?? '' }];
      case 'tool_use': {
        const id = str(block.id) ?? '';
        const name = str(block.name) ?? 'unknown';
        const args = obj(block.input) ?? {};
        this.#tools.set(id, name);
        const kind = claudeToolKindOf(name);
        const path = toolPathOf(
          kind,
          { path: args.file_path ?? args.notebook_path ?? args.path },
          this.#workdirs,
        );
        return [
          { type: 'tool_call', tool_call_id: id, tool_name: name, kind, args, ...(path ? { path } : {}) },
        ];
      }
      default:
        return [];
    }
  }

  #userBlock(block: Record<string, unknown>): RunnerEvent[] {
    if (block.type !== 'tool_result') return [];
    const id = str(block.tool_use_id) ?? '';
    const name = this.#tools.get(id) ?? 'unknown';
    return [
      {
        type: 'tool_result',
        tool_call_id: id,
        tool_name: name,
        kind: claudeToolKindOf(name),
        ok: block.is_error !== true,
        result: textOf(block.content),
      },
    ];
  }

  #result(event: Record<string, unknown>): RunnerEvent[] {
    this.sessionId = str(event.session_id) ?? this.sessionId;
    const usage = obj(event.usage);
    const events: RunnerEvent[] = [];
    if (usage || num(event.total_cost_usd) !== undefined) {
      const input =
        (num(usage?.input_tokens) ?? 0) +
        (num(usage?.cache_creation_input_tokens) ?? 0) +
        (num(usage?.cache_read_input_tokens) ?? 0);
      const output = num(usage?.output_tokens) ?? 0;
      const cost = num(event.total_cost_usd);
      this.usage = {
        input_tokens: input,
        output_tokens: output,
        total_tokens: input + output,
        ...(cost !== undefined ? { cost_usd: cost } : {}),
      };
      events.push({ type: 'usage', usage: this.usage });
    }
    const result = str(event.result);
    if (event.is_error === true || (str(event.subtype) ?? 'success') !== 'success') {
      this.error = {
        code: 'RUNNER_FAILED',
        message: result || `Claude Code ended with ${str(event.subtype) ?? 'an error'}.`,
        ...(str(event.subtype) ? { details: { subtype: str(event.subtype) } } : {}),
      };
      events.push({ type: 'error', error: this.error });
    } else {
      this.output = result ?? '';
    }
    return events;
  }
}
