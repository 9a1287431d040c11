import type { AgentHooks, AgentState } from '../agent/index.ts';
import type { Approval, JsonObject } from '../store/index.ts';
import { SuspendRun } from '../workflow/index.ts';
import { announceOnce } from './announce-once.ts';
import type { Execution } from './execution.ts';
import { requestOnce } from './human-request.ts';
import { timeoutDetail } from './interaction-timeout.ts';

type HumanRequest = { kind: 'tool' | 'question'; prompt: string; options: string[]; detail: JsonObject };

/**
 * The decision on the human request the current tool call waits for. The first time, records the request,
 * announces it, checkpoints and suspends the run, which then holds no worker; when the run is continued,
 * the same call finds the request by the id the checkpoint kept.
 */
async function waitForHuman(
  execution: Execution,
  nodeId: string,
  request: HumanRequest,
  current: AgentState,
  stepId: string,
): Promise<Approval> {
  const { store, run } = execution;
  const pending = current.pending!;
  if (pending.approval_id) {
    const approval = await store.getApproval(pending.approval_id);
    if (approval.status === 'pending') throw new SuspendRun('waiting');
    return approval;
  }
  // Once per tool call, even when a worker died between recording it and the checkpoint keeping its id.
  const approval = await requestOnce(
    execution,
    {
      run_id: run.id,
      step_id: stepId,
      node_id: nodeId,
      ...request,
      detail: { ...request.detail, ...timeoutDetail(execution.setup.interactionTimeoutSeconds) },
    },
    (earlier) => earlier.detail.tool_call_id === request.detail.tool_call_id,
  );
  pending.approval_id = approval.id;
  await announceOnce(execution, {
    type: 'interaction_request',
    request_id: approval.id,
    kind: request.kind === 'tool' ? 'approval' : 'question',
    prompt: request.prompt,
    options: approval.options,
  });
  await store.finishStep(stepId, { status: 'waiting', detail: { approval_id: approval.id } });
  await execution.checkpointer.saveIgnoringPause(stepId);
  throw new SuspendRun('waiting');
}

/** The agent's `approval` hook: a tool call policy holds for a human's approval. */
export function approvalHook(execution: Execution, nodeId: string): AgentHooks['approval'] {
  return async (call, args, current, stepId, need) => {
    const approval = await waitForHuman(
      execution,
      nodeId,
      {
        kind: 'tool',
        prompt: `Allow ${call.name} ${truncateArgs(args)}?${need.why ? ` (${need.why})` : ''}`,
        options: ['approve', 'reject'],
        detail: {
          tool_name: call.name,
          tool_call_id: call.id,
          args: args as JsonObject,
          ...(need.why ? { reason: need.why } : {}),
        },
      },
      current,
      stepId,
    );
    if (approval.status === 'expired') return { status: 'expired', reason: approval.answer ?? 'timed out' };
    return approval.status === 'rejected' || approval.status === 'cancelled'
      ? { status: 'rejected', reason: approval.answer }
      : { status: 'approved' };
  };
}

/** The agent's `ask` hook: the `question` tool's question to the user. */
export function askHook(execution: Execution, nodeId: string): AgentHooks['ask'] {
  return async (call, question, current, stepId) => {
    const approval = await waitForHuman(
      execution,
      nodeId,
      {
        kind: 'question',
        prompt: question.text,
        options: question.options ?? [],
        detail: { tool_call_id: call.id },
      },
      current,
      stepId,
    );
    if (approval.status === 'expired') {
      return `(no answer: the question expired; ${approval.answer ?? 'nobody answered in time'})`;
    }
    if (approval.status === 'rejected' || approval.status === 'cancelled') {
      return `(no answer: the user declined${approval.answer ? `: ${approval.answer}` : ''})`;
    }
    return approval.answer ?? approval.status;
  };
}

function truncateArgs(args: Record<string, unknown>): string {
  const text = JSON.stringify(args);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
