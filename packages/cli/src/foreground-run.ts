import { setTimeout as delay } from 'node:timers/promises';
import type { Run, Runtime, RuntimeEvent } from '@keel/runtime';
import { followRun, orphanMessage } from './follow-run.ts';
import { interruptSignal } from './interrupt.ts';
import type { CliIo } from './io.ts';
import { approvalHint } from './render/approval-hint.ts';
import { noProgress, type Progress, startProgress } from './render/progress.ts';
import { createRecordPrinter, type RecordPrinterOptions } from './render/record-printer.ts';

/**
 * Exit codes of a run continued in this terminal, as `keel run`'s: 0 succeeded, 1 failed, 130 cancelled or
 * interrupted, and 3 when it stopped to wait for a human (an approval, or a pause) and can be continued.
 */
export const exitCodes = { succeeded: 0, failed: 1, stopped: 3, interrupted: 130 } as const;

/**
 * Executes a queued run in this process (`runtime.drive`), printing its events like `keel run`, until it
 * ends, waits or pauses. When another worker claimed it first, follows it from the store instead.
 */
export async function continueInForeground(
  runtime: Runtime,
  run: Run,
  options: RecordPrinterOptions,
  io: CliIo,
): Promise<number> {
  using interrupt = interruptSignal();
  // A spinner on a terminal's stderr while the run goes on here; taken off before the closing lines.
  const progress = options.json ? noProgress : startProgress(io);
  try {
    return await executeHere(runtime, run, { ...options, progress }, interrupt.signal, io);
  } finally {
    progress.stop();
  }
}

async function executeHere(
  runtime: Runtime,
  run: Run,
  options: RecordPrinterOptions & { progress: Progress },
  signal: AbortSignal,
  io: CliIo,
): Promise<number> {
  // It executes here: write_file's overwritten content can be read before the tool runs, for its diff.
  const printRecord = createRecordPrinter(io, { ...options, workdir: run.workdir });
  // A run continued from a checkpoint may have streamed its answer before it: show it at the end then,
  // as an answer (Markdown rendered on a terminal).
  let streamed = false;
  const print = (event: RuntimeEvent, seq: number) => {
    if (event.type === 'text_delta') streamed = true;
    if (event.type === 'done' && !streamed && !options.json && event.output)
      printRecord({ type: 'text_delta', session_id: event.session_id, content: `${event.output}\n` }, seq);
    printRecord(event, seq);
  };
  let cursor = run.last_seq;
  for (;;) {
    const outcome = await runtime.drive(run.id, {
      signal,
      onEvent: (event: RuntimeEvent, seq: number) => {
        cursor = seq;
        print(event, seq);
      },
    });
    if (outcome?.run.status === 'queued') continue;
    if (outcome?.run.status === 'waiting' && (await parkedOnSubAgents(runtime, run.id))) {
      // Its sub-agents run in this process: stay until one it waits for ends and it is queued again.
      if (!(await untilNotWaiting(runtime, run.id, signal))) return exitCodes.interrupted;
      continue;
    }
    if (outcome && outcome.run.status !== 'running') return stoppedAt(runtime, outcome.run, options, io);
    // Claimed by another worker (or this one lost its lease to one): show what that worker does.
    options.progress.write(io.err, `Run ${run.id} is being executed by another worker; following it.\n`);
    const followed = await followRun(
      runtime,
      run.id,
      // Another worker executes it: no file is read before its tools run (no workdir).
      { ...options, after: cursor, signal, untilStopped: true },
      io,
    );
    if (followed.end === 'interrupted') return exitCodes.interrupted;
    if (followed.end === 'orphaned') {
      options.progress.stop();
      io.err.write(`${orphanMessage(followed.run, options.keelArgs)}\n`);
      return exitCodes.failed;
    }
    return stoppedAt(runtime, followed.run, options, io);
  }
}

/** The exit code for where a run stopped, explaining a run that waits for someone. */
async function stoppedAt(
  runtime: Runtime,
  run: Run,
  options: RecordPrinterOptions & { progress: Progress },
  io: CliIo,
): Promise<number> {
  options.progress.stop();
  switch (run.status) {
    case 'succeeded':
      return exitCodes.succeeded;
    case 'cancelled':
      return exitCodes.interrupted;
    case 'waiting': {
      const pending = await runtime.approvals.list({ run_id: run.id, status: 'pending' });
      io.err.write(`Run ${run.id} is waiting for ${pending.length === 1 ? 'an approval' : 'approvals'}.\n`);
      for (const approval of pending) io.err.write(`${approvalHint(approval, options.keelArgs)}\n`);
      return exitCodes.stopped;
    }
    case 'paused':
      io.err.write(
        `Run ${run.id} is paused. Continue it with: keel runs resume ${run.id}${options.keelArgs ?? ''}\n`,
      );
      return exitCodes.stopped;
    default:
      return exitCodes.failed;
  }
}

/** A waiting run with no approval pending waits on its sub-agents (get_agent_status with `wait`). */
async function parkedOnSubAgents(runtime: Runtime, runId: string): Promise<boolean> {
  const pending = await runtime.approvals.list({ run_id: runId, status: 'pending', limit: 1 });
  return pending.length === 0 && (await runtime.agents.list(runId)).length > 0;
}

/** Polls until the run is no longer waiting; false when interrupted first. */
async function untilNotWaiting(runtime: Runtime, runId: string, signal: AbortSignal): Promise<boolean> {
  while (!signal.aborted && (await runtime.runs.get(runId)).status === 'waiting') {
    await delay(200, undefined, { signal }).catch(() => undefined);
  }
  return !signal.aborted;
}
