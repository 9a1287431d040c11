import { styleText } from 'node:util';
import type { RuntimeEvent } from '@keel/runtime';
import { approvalHint } from './approval-hint.ts';
import { terminalSafe } from './terminal-safe.ts';
import { formatToolCall, previewResult, truncate } from './truncate.ts';

export interface PrinterOptions {
  verbose: boolean;
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  /** Appended to the `keel approvals …` commands shown for an approval (e.g. ` -w <dir>`). */
  keelArgs?: string;
}

/** What a replay knows about an event now: an approval request that has since been decided. */
export interface SeenAs {
  decided?: string | undefined;
}

/**
 * Prints a run as it streams: the answer on stdout, tool activity, thinking and usage on stderr,
 * so `keel run … > answer.md` captures only the answer. Every text from the run (the model's, a tool's,
 * the store's) goes through terminalSafe: its control sequences are shown, never interpreted.
 */
export function createEventPrinter(options: PrinterOptions): (event: RuntimeEvent, seen?: SeenAs) => void {
  const { out, err, verbose } = options;
  // Escaped first, coloured after: the only escape sequences printed are keel's own colours.
  const color = (format: Parameters<typeof styleText>[0], text: string) =>
    styleText(format, terminalSafe(text), { stream: err as NodeJS.WriteStream });
  let midLine = false;
  // A CR that ends a chunk may be the first half of a CRLF: kept until the next chunk says.
  let heldCr = false;
  const text = (chunk: string) => {
    const whole = `${heldCr ? '\r' : ''}${chunk}`;
    heldCr = whole.endsWith('\r');
    const safe = terminalSafe(heldCr ? whole.slice(0, -1) : whole);
    if (safe === '') return;
    out.write(safe);
    midLine = !safe.endsWith('\n');
  };
  const line = (message: string) => {
    if (midLine) out.write('\n');
    midLine = false;
    heldCr = false;
    err.write(`${message}\n`);
  };

  return (event, seen) => {
    switch (event.type) {
      case 'thinking':
        if (verbose) err.write(color('dim', event.content));
        break;
      case 'text_delta':
        text(event.content);
        break;
      case 'tool_call':
        line(color('cyan', `● ${formatToolCall(event.tool_name, event.args)}`));
        break;
      case 'tool_result': {
        const body = verbose ? event.result : previewResult(event.result);
        const failed = event.result.startsWith('Error:');
        line(color(failed ? 'red' : 'dim', `  ⎿ ${body.replace(/\n/g, '\n    ')}`));
        break;
      }
      case 'retry':
        line(color('yellow', `↻ retry ${event.attempt}/${event.max_attempts}: ${event.error}`));
        break;
      case 'circuit_breaker':
        line(color('red', `⛔ circuit breaker: ${event.reason}`));
        break;
      case 'user_input_received':
        line(color('cyan', `» you: ${event.content}`));
        break;
      case 'agent_spawned':
        line(
          color('dim', `↳ sub-agent ${event.agent_id} (${event.agent_type}): ${truncate(event.task, 100)}`),
        );
        break;
      case 'agent_finished':
        line(
          color(
            event.status === 'completed' ? 'dim' : 'yellow',
            `↳ sub-agent ${event.agent_id} ${event.status}${event.error ? `: ${truncate(event.error, 100)}` : ''}`,
          ),
        );
        break;
      case 'prune':
        line(
          color(
            'dim',
            `context pruned: ${event.pruned_count} old tool results (~${event.estimated_tokens_saved} tokens saved)`,
          ),
        );
        break;
      case 'compact':
        line(
          color(
            'dim',
            `context compacted: ${event.original_messages} → ${event.compacted_messages} messages (~${event.estimated_tokens_saved} tokens saved)`,
          ),
        );
        break;
      case 'done': {
        const { input_tokens, output_tokens, total_tokens } = event.usage;
        line(
          color(
            'dim',
            `Tokens: ${input_tokens} in, ${output_tokens} out, ${total_tokens} total · session ${event.session_id}`,
          ),
        );
        break;
      }
      case 'interaction_request':
        line(
          seen?.decided
            ? color('dim', `? ${event.prompt} (${seen.decided})`)
            : color(
                'yellow',
                approvalHint(
                  { id: event.request_id, prompt: event.prompt, kind: event.kind, options: event.options },
                  options.keelArgs,
                ),
              ),
        );
        break;
      case 'cancelled':
        line(color('yellow', 'Cancelled.'));
        break;
      case 'error':
        line(color('red', `Error [${event.error.code}]: ${event.error.message}`));
        break;
      default:
        break;
    }
  };
}
