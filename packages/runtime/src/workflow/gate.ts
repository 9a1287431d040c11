import { KeelError } from '../errors/index.ts';
import type { JsonObject, JsonValue } from '../store/index.ts';
import { parseVerdict, verdictInstructions } from './agent-answers.ts';
import type { WorkflowNode } from './definition.ts';
import { evaluate, render } from './expressions.ts';
import type { NodeScope } from './node-scope.ts';
import type { NodeOf } from './scheduler-hooks.ts';
import type { NodeState } from './state.ts';

/** A command's output as a verdict keeps at most this much: its start and, mostly, its end. */
const maxCheckOutputChars = 4_000;

/** One check of one decision, as the review artifact and the repair see it. */
type CheckVerdict =
  | { kind: 'check'; passed: boolean }
  | { kind: 'command'; command: string; passed: boolean; exit_code: number | null; output: string }
  | { kind: 'reviewer'; specialist: string; passed: boolean; reasons: string[] };

interface Decision {
  repairs: number;
  passed: boolean;
  checks: CheckVerdict[];
}

/**
 * A quality gate: runs its body, then its checks (the predicate, the commands, and, once those pass, the
 * reviewer agent); when one fails, runs the repair with what failed and checks again, at most
 * `max_repairs` times. Every decision is a `review` artifact holding the verdicts so far, and a boundary:
 * a decision made is not made again on resume.
 */
export async function runGate(
  node: NodeOf<'gate'>,
  state: NodeState,
  scope: NodeScope,
  signal: AbortSignal,
): Promise<JsonValue> {
  const { hooks } = scope;
  const maxRepairs = node.max_repairs ?? 2;
  for (;;) {
    const repairs = state.repairs ?? 0;
    if (node.body) await scope.execute(node.body, signal);
    const stepId = await hooks.startStep(node.id, 'gate', { repairs });
    const checks = await check(node, repairs, scope, signal);
    const passed = checks.every((each) => each.passed);
    // A decision lost with a worker that died before its checkpoint is made again, not counted twice.
    const decisions = [
      ...((state.verdicts ?? []) as unknown as Decision[]).filter((d) => d.repairs < repairs),
    ];
    decisions.push({ repairs, passed, checks });
    state.verdicts = decisions as unknown as JsonValue[];
    await hooks.saveArtifact({
      nodeId: node.id,
      stepId,
      name: `${node.id}-review-${repairs}.json`,
      kind: 'review',
      data: {
        gate: node.id,
        passed,
        repairs,
        max_repairs: maxRepairs,
        ...(node.check ? { check: node.check as unknown as JsonValue } : {}),
        verdicts: decisions as unknown as JsonValue,
      },
    });
    const canRepair = !passed && node.repair !== undefined && repairs < maxRepairs;
    const failure = new KeelError(
      'AGENT_ERROR',
      `Quality gate '${node.id}' failed after ${repairs} repairs.`,
      {
        node_id: node.id,
        repairs,
        failures: failureReport(checks),
      },
    );
    await hooks.finishStep(stepId, passed || canRepair ? 'succeeded' : 'failed', {
      detail: { passed, repairs } as JsonObject,
      ...(passed || canRepair ? {} : { error: failure }),
    });
    if (passed) {
      const output = { passed: true, repairs };
      state.status = 'succeeded';
      state.output = output;
      await hooks.checkpoint(stepId);
      return output;
    }
    if (!canRepair) throw failure;
    // The repair sees what failed: in its prompt when it is an agent, as the gate's output otherwise.
    const failures = failureReport(checks);
    state.output = failures;
    await scope.execute(withFailures(node.repair!, node.id, failures), signal);
    resetRepair(scope, node);
    state.repairs = repairs + 1;
    await hooks.checkpoint(null);
  }
}

/** The checks of one decision, in order: predicate, commands, then the reviewer if those passed. */
async function check(
  node: NodeOf<'gate'>,
  repairs: number,
  scope: NodeScope,
  signal: AbortSignal,
): Promise<CheckVerdict[]> {
  const checks: CheckVerdict[] = [];
  if (node.check) checks.push({ kind: 'check', passed: evaluate(node.check, scope.state) });
  for (const command of node.commands ?? []) {
    const ran = await scope.hooks.runCheck(command, signal);
    checks.push({
      kind: 'command',
      command,
      passed: ran.exit_code === 0,
      exit_code: ran.exit_code,
      output: capOutput(ran.output),
    });
  }
  if (node.reviewer && checks.every((each) => each.passed)) {
    const specialist = node.reviewer.specialist ?? 'reviewer';
    const reviewer: WorkflowNode = {
      id: `${node.id}.reviewer-${repairs}`,
      kind: 'agent',
      specialist,
      prompt: [
        render(node.reviewer.prompt ?? '{{input.prompt}}', scope.hooks.input, scope.state),
        '',
        'Review the work done for the request above, as it is now in the working directory.',
        verdictInstructions,
      ].join('\n'),
    };
    const answer = await scope.execute(reviewer, signal);
    checks.push({ kind: 'reviewer', specialist, ...parseVerdict(String(answer ?? '')) });
  }
  return checks;
}

/** What failed, for the repair: each failed check with its output or reasons. */
function failureReport(checks: CheckVerdict[]): string {
  return checks
    .filter((each) => !each.passed)
    .map((each) => {
      if (each.kind === 'command')
        return `The command \`${each.command}\` failed (exit code ${each.exit_code}):\n${each.output}`;
      if (each.kind === 'reviewer')
        return `The reviewer failed the work:\n${each.reasons.map((r) => `- ${r}`).join('\n')}`;
      return 'The gate check over the node outputs does not hold.';
    })
    .join('\n\n');
}

function withFailures(repair: WorkflowNode, gateId: string, failures: string): WorkflowNode {
  if (repair.kind !== 'agent') return repair;
  return { ...repair, prompt: `${repair.prompt}\n\n# What quality gate '${gateId}' found\n\n${failures}` };
}

/** The repair and the body run afresh next time; the reviewers of earlier decisions stay as they were. */
function resetRepair(scope: NodeScope, node: NodeOf<'gate'>): void {
  for (const child of [node.repair, node.body]) if (child) scope.resetSubtree(child);
}

/** A long output keeps its first 1,000 characters and its last 3,000: where failures are usually told. */
function capOutput(output: string): string {
  if (output.length <= maxCheckOutputChars) return output;
  const head = output.slice(0, 1_000);
  const tail = output.slice(-(maxCheckOutputChars - 1_000));
  return `${head}\n… ${output.length - maxCheckOutputChars} characters cut …\n${tail}`;
}
