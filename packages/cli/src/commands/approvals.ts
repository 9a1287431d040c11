import type { Approval, ApprovalStatus, Run, Runtime } from '@keel/runtime';
import type { Command } from 'commander';
import { keelArgsOf, printJson, type WorkdirFlags, withRuntime, workdirOption } from '../cli-runtime.ts';
import { orphanMessage } from '../follow-run.ts';
import { continueInForeground } from '../foreground-run.ts';
import type { CliIo } from '../io.ts';
import { oneOf, positiveInt } from '../option-parsers.ts';
import { formatApproval } from '../render/records.ts';
import { describe } from './descriptions.ts';

const approvalStatuses: readonly ApprovalStatus[] = [
  'pending',
  'approved',
  'rejected',
  'answered',
  'cancelled',
  'expired',
];

interface DecideFlags extends WorkdirFlags {
  reason?: string;
  detach?: boolean;
  json?: boolean;
  verbose?: boolean;
}

type Decide = (
  runtime: Runtime,
  id: string,
  options: { reason?: string; by?: string },
) => Promise<{ approval: Approval; run: Run }>;

/** `keel approvals list|approve|reject`: the approvals runs wait on, decided from any process. */
export function registerApprovals(program: Command, io: CliIo): void {
  const approvals = program.command('approvals').description(describe('approvals'));

  workdirOption(approvals.command('list'))
    .description('List approvals, newest first')
    .option('--run-id <id>', 'only this run’s approvals')
    .option(
      '--status <status>',
      `only approvals in this status (${approvalStatuses.join(', ')})`,
      oneOf(approvalStatuses),
    )
    .option('--limit <n>', 'how many approvals', positiveInt, 50)
    .option('--json', 'print JSON')
    .action(
      (flags: WorkdirFlags & { runId?: string; status?: ApprovalStatus; limit: number; json?: boolean }) =>
        withRuntime(io, flags, async (runtime) => {
          // An unknown run id is an error, not an empty list.
          if (flags.runId) await runtime.runs.get(flags.runId);
          const list = await runtime.approvals.list({
            limit: flags.limit,
            ...(flags.runId ? { run_id: flags.runId } : {}),
            ...(flags.status ? { status: flags.status } : {}),
          });
          if (flags.json) printJson(io, { approvals: list });
          else io.out.write(list.length ? `${list.map(formatApproval).join('\n')}\n` : 'No approvals.\n');
        }),
    );

  deciding(
    approvals,
    io,
    'approve',
    'Approve: the tool call runs and the run continues',
    (runtime, id, options) => runtime.approvals.approve(id, options),
  );
  deciding(
    approvals,
    io,
    'reject',
    'Reject: the model is told the call was refused (and why) and the run continues',
    (runtime, id, options) => runtime.approvals.reject(id, options),
  );
  answering(approvals, io);
}

/** `keel approvals answer <id> <answer…>`: answers a question the run asked, then continues it. */
function answering(approvals: Command, io: CliIo): void {
  workdirOption(approvals.command('answer'))
    .description('Answer a question a run asked (the question tool); the run continues with the answer')
    .argument('<approval_id>')
    .argument('<answer...>', 'the answer (one of the options offered, or your own words)')
    .option('--detach', 'only answer; a worker (`keel worker`) or another command continues the run')
    .option('-v, --verbose', 'show thinking and full tool results')
    .option('--json', 'print events as JSON lines (with --detach: the answer as JSON)')
    .action((approvalId: string, words: string[], flags: DecideFlags) =>
      withRuntime(io, flags, async (runtime) => {
        const by = io.env.USER ?? io.env.USERNAME;
        const { approval, run } = await runtime.approvals.answer(
          approvalId,
          words.join(' '),
          by ? { by } : {},
        );
        return afterDecision(runtime, io, flags, approval, run, `Answered ${approval.id}`);
      }),
    );
}

/**
 * Decides an approval. When it was the last one the run waited for, the run is queued again and, unless
 * `--detach`, this process continues it in the foreground (or follows the worker that claimed it first).
 */
function deciding(approvals: Command, io: CliIo, name: string, description: string, decide: Decide): void {
  workdirOption(approvals.command(name))
    .description(description)
    .argument('<approval_id>')
    .option('--reason <text>', 'why (the model sees it on a rejection)')
    .option('--detach', 'only decide; a worker (`keel worker`) or another command continues the run')
    .option('-v, --verbose', 'show thinking and full tool results')
    .option('--json', 'print events as JSON lines (with --detach: the decision as JSON)')
    .action((approvalId: string, flags: DecideFlags) =>
      withRuntime(io, flags, async (runtime) => {
        const by = io.env.USER ?? io.env.USERNAME;
        const { approval, run } = await decide(runtime, approvalId, {
          ...(flags.reason ? { reason: flags.reason } : {}),
          ...(by ? { by } : {}),
        });
        const verb = approval.status === 'approved' ? 'Approved' : 'Rejected';
        return afterDecision(runtime, io, flags, approval, run, `${verb} ${approval.id}`);
      }),
    );
}

/** After a decision: continue the run here (unless `--detach`), or say who continues it. */
async function afterDecision(
  runtime: Runtime,
  io: CliIo,
  flags: DecideFlags,
  approval: Approval,
  run: Run,
  done: string,
): Promise<number> {
  const keelArgs = keelArgsOf(io, flags);
  const summary = `${done}; run ${run.id} is ${run.status}.`;
  if (run.status === 'queued' && !flags.detach) {
    // The run continues here: stdout is its answer, as with `keel run`.
    io.err.write(`${summary}\n`);
    return continueInForeground(runtime, run, { json: flags.json, verbose: flags.verbose, keelArgs }, io);
  }
  if (flags.json) printJson(io, { approval, run });
  else io.out.write(`${summary}\n`);
  if (run.status === 'queued') {
    io.err.write(
      `A worker (keel worker) continues it; follow it with: keel runs watch ${run.id}${keelArgs}\n`,
    );
  } else if (runtime.runs.isOrphaned(run)) {
    io.err.write(`${orphanMessage(run, keelArgs)}\n`);
  }
  return 0;
}
