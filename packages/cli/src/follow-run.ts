import type { Run, Runtime, RuntimeEvent } from '@keel/runtime';
import type { CliIo } from './io.ts';
import { createRecordPrinter, type RecordPrinterOptions } from './render/record-printer.ts';
import { terminalSafe, terminalSafeJson } from './render/terminal-safe.ts';

export interface FollowOptions extends RecordPrinterOptions {
  /** Print only events after this sequence number. */
  after: number;
  signal: AbortSignal;
  /**
   * Also stop once the run waits for a human (an approval, a question) or is paused, with every event
   * printed: a terminal that continued a run stops there, as it would had it executed the run itself.
   */
  untilStopped?: boolean;
}

/** How following ended: the run is final (or stopped, with `untilStopped`), its worker died, or the user interrupted. */
export type FollowEnd = { end: 'final'; run: Run } | { end: 'orphaned'; run: Run } | { end: 'interrupted' };

// How often a follower checks that the worker holding the run is still alive: a dead worker writes no
// more events, so without this check a follower would wait forever.
const orphanCheckMs = 1000;

/**
 * Replays a run's events from a cursor, then follows it live (from any process) until it is final (or, with
 * `untilStopped`, waits for a human).
 */
export async function followRun(
  runtime: Runtime,
  runId: string,
  options: FollowOptions,
  io: CliIo,
): Promise<FollowEnd> {
  const first = await runtime.runs.get(runId);
  if (runtime.runs.isOrphaned(first)) return { end: 'orphaned', run: first };
  const print = createRecordPrinter(io, options);
  const stop = new AbortController();
  const signal = AbortSignal.any([options.signal, stop.signal]);
  let orphaned: Run | undefined;
  let printed = options.after;
  const check = setInterval(() => {
    runtime.runs
      .get(runId)
      .then((run) => {
        if (options.untilStopped && stoppedForHuman(run) && run.last_seq <= printed) stop.abort();
        if (!runtime.runs.isOrphaned(run)) return;
        orphaned = run;
        stop.abort();
      })
      .catch(() => undefined);
  }, orphanCheckMs);
  try {
    // A page at a time: a long run replays with one write per page and is never held in memory whole.
    for await (const page of runtime.runs.watchPages(runId, { after: options.after, signal })) {
      let lines = '';
      for (const { seq, type, json } of page) {
        // With --json, events go out as stored, seq spliced in: nothing to parse or serialise again.
        if (options.json && type !== 'interaction_request') {
          lines += `${jsonLine(seq, json)}\n`;
          continue;
        }
        if (lines !== '') io.out.write(lines);
        lines = '';
        const event = JSON.parse(json) as RuntimeEvent;
        // A replayed approval request may have been decided since: say so instead of asking again.
        const decided =
          event.type === 'interaction_request' ? await decidedStatus(runtime, event.request_id) : undefined;
        print(event, seq, { decided });
      }
      if (lines !== '') io.out.write(lines);
      printed = page.at(-1)?.seq ?? printed;
      if (signal.aborted) break;
    }
  } finally {
    clearInterval(check);
  }
  if (options.signal.aborted) return { end: 'interrupted' };
  if (orphaned) return { end: 'orphaned', run: orphaned };
  return { end: 'final', run: await runtime.runs.get(runId) };
}

function stoppedForHuman(run: Run): boolean {
  return run.status === 'waiting' || run.status === 'paused';
}

/** `{"seq": n, ...event}` from the event's stored JSON, as `--json` prints it (terminal-safe). */
function jsonLine(seq: number, json: string): string {
  return terminalSafeJson(json.length > 2 ? `{"seq":${seq},${json.slice(1)}` : `{"seq":${seq}}`);
}

/** Explains an orphaned run and how to continue it. */
export function orphanMessage(run: Run, keelArgs = ''): string {
  return terminalSafe(
    [
      `Run ${run.id} is orphaned: its worker ${run.lease_owner ?? '(unknown)'} stopped without finishing it.`,
      `Continue it from its last checkpoint with: keel runs recover ${run.id}${keelArgs}`,
    ].join('\n'),
  );
}

async function decidedStatus(runtime: Runtime, approvalId: string): Promise<string | undefined> {
  const approval = await runtime.approvals.get(approvalId).catch(() => undefined);
  return approval && approval.status !== 'pending' ? approval.status : undefined;
}
