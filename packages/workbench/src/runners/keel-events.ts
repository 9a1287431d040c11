import type { RuntimeEvent } from '@keel/runtime';
import type { RunnerEvent } from './contract.ts';
import { toolKindOf, toolPathOf } from './tool-kind.ts';

// How the runtime words a tool result the tool did not produce: a failure, or a call the user rejected.
const failedResult = /^(Error: |Not run: )/;

/**
 * Turns the runtime's events of one run into normalised runner events. `session_start` is left out (the
 * runner announces `runner_started` itself, with the run id) and so are `cancelled` (the outcome says it),
 * compaction notices and interaction requests.
 */
export class KeelEventMapper {
  readonly #workdirs: readonly string[];
  /** A tripped breaker is announced once: its `error` event that follows is the same failure. */
  #breakerTripped = false;

  constructor(workdirs: readonly string[]) {
    this.#workdirs = workdirs;
  }

  map(event: RuntimeEvent): RunnerEvent[] {
    switch (event.type) {
      case 'thinking':
        return [{ type: 'thinking', content: event.content }];
      case 'text_delta':
        return [{ type: 'text_delta', content: event.content }];
      case 'tool_call': {
        const kind = toolKindOf(event.tool_name);
        const path = toolPathOf(kind, event.args, this.#workdirs);
        return [
          {
            type: 'tool_call',
            tool_call_id: event.tool_call_id,
            tool_name: event.tool_name,
            kind,
            args: event.args,
            ...(path ? { path } : {}),
          },
        ];
      }
      case 'tool_result':
        return [
          {
            type: 'tool_result',
            tool_call_id: event.tool_call_id,
            tool_name: event.tool_name,
            kind: toolKindOf(event.tool_name),
            ok: !failedResult.test(event.result),
            result: event.result,
          },
        ];
      case 'retry':
        return [
          { type: 'retry', attempt: event.attempt, max_attempts: event.max_attempts, error: event.error },
        ];
      case 'user_input_received':
        return [{ type: 'message', role: 'user', content: event.content }];
      case 'done':
        return [
          { type: 'message', role: 'assistant', content: event.output },
          { type: 'usage', usage: event.usage },
        ];
      case 'circuit_breaker':
        this.#breakerTripped = true;
        return [
          {
            type: 'error',
            error: {
              code: 'CIRCUIT_BREAKER',
              message: event.reason,
              details: { tokens_used: event.tokens_used, cost_usd: event.cost_usd },
            },
          },
        ];
      case 'error':
        if (this.#breakerTripped) {
          this.#breakerTripped = false;
          return [];
        }
        return [{ type: 'error', error: event.error }];
      default:
        return [];
    }
  }
}
