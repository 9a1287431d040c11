import { styleText } from 'node:util';
import type { RuntimeEvent } from '@keel/runtime';
import { approvalHint } from './approval-hint.ts';
import { contentBeforeWrite, fileChangeLines, formatDiff } from './file-diff.ts';
import { createMarkdownStream, rendersMarkdown } from './markdown.ts';
import { noProgress, type Progress } from './progress.ts';
import { retryLabel } from './retry-label.ts';
import { terminalSafe } from './terminal-safe.ts';
import { formatToolCall, previewResult, truncate } from './truncate.ts';

export interface PrinterOptions {
  verbose: boolean;
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  /** Appended to the `keel approvals …` commands shown for an approval (e.g. ` -w <dir>`). */
  keelArgs?: string;
  /** The spinner of a run watched at a terminal: told what the run does, and every write goes through it. */
  progress?: Progress;
  /**
   * The run's directory, when the run executes in this process: a file write_file is about to overwrite is
   * read there first, so its diff can be shown. A replay has no such moment and shows no overwrite's diff.
   */
  workdir?: string;
}

/** A file tool's diff shows this many lines, then how many more (all of them with --verbose). */
const diffLines = 40;
const fileTools = new Set(['edit_file', 'write_file', 'patch']);

/** What a replay knows about an event now: an approval request that has since been decided. */
export interface SeenAs {
  decided?: string | undefined;
}

/**
 * Prints a run as it streams: the answer on stdout, tool activity, thinking and usage on stderr,
 * so `keel run … > answer.md` captures only the answer. Every text from the run (the model's, a tool's,
 * the store's) goes through terminalSafe: its control sequences are shown, never interpreted. On a
 * terminal that shows colour the answer's Markdown is rendered, a line at a time as it streams in.
 */
export function createEventPrinter(options: PrinterOptions): (event: RuntimeEvent, seen?: SeenAs) => void {
  const { out, err, verbose } = options;
  const progress = options.progress ?? noProgress;
  // Escaped first, coloured after: the only escape sequences printed are keel's own colours.
  const color = (format: Parameters<typeof styleText>[0], text: string) =>
    styleText(format, terminalSafe(text), { stream: err as NodeJS.WriteStream });
  const toOut = (text: string) => progress.write(out, text);
  const toErr = (text: string) => progress.write(err, text);
  const markdown = rendersMarkdown(out) ? createMarkdownStream(toOut) : undefined;
  // File tools' calls until their results, for the diff of what they changed.
  const calls = new Map<string, { tool: string; args: Record<string, unknown>; before?: string }>();
  let midLine = false;
  // A CR that ends a chunk may be the first half of a CRLF: kept until the next chunk says.
  let heldCr = false;
  const text = (chunk: string) => {
    const whole = `${heldCr ? '\r' : ''}${chunk}`;
    heldCr = whole.endsWith('\r');
    const safe = terminalSafe(heldCr ? whole.slice(0, -1) : whole);
    if (safe === '') return;
    if (markdown) {
      markdown.push(safe);
      midLine = markdown.pending;
      return;
    }
    toOut(safe);
    midLine = !safe.endsWith('\n');
  };
  const line = (message: string) => {
    if (markdown) markdown.end();
    else if (midLine) toOut('\n');
    midLine = false;
    heldCr = false;
    toErr(`${message}\n`);
  };
  const diff = (lines: string[]) =>
    formatDiff(lines, verbose ? lines.length : diffLines, (kind, text) =>
      color(
        kind === 'added' ? 'green' : kind === 'removed' ? 'red' : 'dim',
        verbose ? text : truncate(text, 164),
      ),
    );

  return (event, seen) => {
    progress.activity(activityOf(event, seen));
    switch (event.type) {
      case 'thinking':
        if (verbose) toErr(color('dim', event.content));
        break;
      case 'text_delta':
        text(event.content);
        break;
      case 'tool_call':
        if (fileTools.has(event.tool_name)) {
          const before =
            options.workdir && event.tool_name === 'write_file'
              ? contentBeforeWrite(options.workdir, event.args.path)
              : undefined;
          calls.set(event.tool_call_id, {
            tool: event.tool_name,
            args: event.args,
            ...(before !== undefined ? { before } : {}),
          });
        }
        line(color('cyan', `● ${formatToolCall(event.tool_name, event.args)}`));
        break;
      case 'tool_result': {
        const body = verbose ? event.result : previewResult(event.result);
        const failed = event.result.startsWith('Error:');
        line(color(failed ? 'red' : 'dim', `  ⎿ ${body.replace(/\n/g, '\n    ')}`));
        const call = calls.get(event.tool_call_id);
        calls.delete(event.tool_call_id);
        const change = call && fileChangeLines(call.tool, call.args, event.result, call.before);
        if (change?.length) line(diff(change));
        break;
      }
      case 'retry':
        line(color('yellow', retryLabel(event)));
        break;
      case 'run_recovered':
        line(
          color(
            'yellow',
            `↻ recovered by ${event.recovered_by} (recovery ${event.recovery}): ${event.lost_owner ?? 'its worker'} stopped holding the run`,
          ),
        );
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

/** What the spinner says while the run is at `event`; null hides it (the run ended). */
function activityOf(event: RuntimeEvent, seen: SeenAs | undefined): string | null {
  switch (event.type) {
    case 'text_delta':
      return 'Writing';
    case 'tool_call':
      return `Running ${event.tool_name}`;
    case 'retry':
      return 'Retrying';
    case 'interaction_request':
      if (seen?.decided) return 'Thinking';
      return event.kind === 'question' ? 'Waiting for an answer' : 'Waiting for approval';
    case 'done':
    case 'cancelled':
    case 'error':
      return null;
    default:
      return 'Thinking';
  }
}
