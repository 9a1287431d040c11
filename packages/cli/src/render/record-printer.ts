import type { RuntimeEvent } from '@keel/runtime';
import type { CliIo } from '../io.ts';
import { approvalHint } from './approval-hint.ts';
import { createEventPrinter, type SeenAs } from './event-printer.ts';
import type { Progress } from './progress.ts';
import { stringifyForTerminal } from './terminal-safe.ts';

export interface RecordPrinterOptions {
  json?: boolean | undefined;
  verbose?: boolean | undefined;
  keelArgs?: string | undefined;
  /** The spinner of a run continued at a terminal (text only). */
  progress?: Progress | undefined;
  /** The run's directory when it executes in this process (text only: an overwrite's diff, see PrinterOptions). */
  workdir?: string | undefined;
}

/**
 * Prints stored events with their sequence numbers: text as `keel run` shows it, or with `json` one JSON
 * line per event (`{"seq": n, ...event}`) on stdout. An approval request is always explained on stderr,
 * so a JSON consumer's stdout stays machine-readable.
 */
export function createRecordPrinter(
  io: CliIo,
  options: RecordPrinterOptions,
): (event: RuntimeEvent, seq: number, seen?: SeenAs) => void {
  if (!options.json) {
    const print = createEventPrinter({
      verbose: options.verbose ?? false,
      out: io.out,
      err: io.err,
      ...(options.keelArgs ? { keelArgs: options.keelArgs } : {}),
      ...(options.progress ? { progress: options.progress } : {}),
      ...(options.workdir ? { workdir: options.workdir } : {}),
    });
    return (event, _seq, seen) => print(event, seen);
  }
  return (event, seq, seen) => {
    io.out.write(`${stringifyForTerminal({ seq, ...event })}\n`);
    if (event.type === 'interaction_request' && !seen?.decided) {
      io.err.write(
        `${approvalHint({ id: event.request_id, prompt: event.prompt, kind: event.kind, options: event.options }, options.keelArgs)}\n`,
      );
    }
  };
}
