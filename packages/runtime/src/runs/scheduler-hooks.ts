import { toErrorObject } from '../errors/index.ts';
import { newId } from '../store/index.ts';
import type { SchedulerHooks } from '../workflow/index.ts';
import { runAgentNode } from './agent-node.ts';
import { announceOnce } from './announce-once.ts';
import { runCheckCommand } from './check-command.ts';
import type { Execution } from './execution.ts';
import { requestOnce } from './human-request.ts';
import { timeoutDetail } from './interaction-timeout.ts';

/** The scheduler's hooks for one execution: steps, checkpoints, approvals and artifacts go to the store. */
export function schedulerHooks(execution: Execution): SchedulerHooks {
  const { run, store, state, setup } = execution;
  return {
    input: run.input,
    emit: execution.emit,
    startStep: async (nodeId, kind, detail) =>
      (
        await store.startStep({
          run_id: run.id,
          node_id: nodeId,
          kind,
          attempt: run.attempt,
          detail: detail ?? {},
        })
      ).id,
    finishStep: async (stepId, status, extra) => {
      await store.finishStep(stepId, {
        status,
        ...(extra?.error ? { error: toErrorObject(extra.error) } : {}),
        ...(extra?.detail ? { detail: extra.detail } : {}),
      });
    },
    checkpoint: (stepId) => execution.checkpointer.save(stepId),
    runAgent: (node, nodeState, prompt, nodeSignal) =>
      runAgentNode(execution, node, nodeState, prompt, nodeSignal),
    specialists: setup.specialists,
    runCheck: (command, checkSignal) => runCheckCommand(command, setup.toolContext(checkSignal)),
    runTool: async (name, params, toolSignal) => {
      const result = await setup.tools.execute(name, params, setup.toolContext(toolSignal));
      state.tool_steps += 1;
      return result;
    },
    requestApproval: async (nodeId, stepId, prompt) => {
      // Once per request, even when a worker died between recording it and the checkpoint keeping its id.
      const approval = await requestOnce(execution, {
        run_id: run.id,
        step_id: stepId,
        node_id: nodeId,
        kind: 'node',
        prompt,
        options: ['approve', 'reject'],
        detail: timeoutDetail(setup.interactionTimeoutSeconds),
      });
      await announceOnce(execution, {
        type: 'interaction_request',
        request_id: approval.id,
        kind: 'approval',
        prompt,
        options: approval.options,
      });
      return approval.id;
    },
    approvalDecision: async (id) => {
      const approval = await store.getApproval(id);
      if (approval.status === 'pending') return null;
      return {
        approved: approval.status === 'approved' || approval.status === 'answered',
        reason: approval.answer,
      };
    },
    saveArtifact: async ({ nodeId, stepId, name, kind, data }) => {
      const id = newId('art');
      const stored = await execution.blobs.put(`${run.id}/${id}`, JSON.stringify(data, null, 2));
      await store.addArtifact({
        id,
        run_id: run.id,
        step_id: stepId,
        node_id: nodeId,
        name,
        kind,
        media_type: 'application/json',
        metadata: {},
        ...stored,
      });
    },
  };
}
