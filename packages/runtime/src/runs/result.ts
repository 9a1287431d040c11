import { deriveMetadata } from '../agent/index.ts';
import type { RunMetadata, ToolTrace, Usage } from '../events/index.ts';
import type { JsonValue } from '../store/index.ts';
import { allNodes, outputText, type SchedulerState, type Workflow } from '../workflow/index.ts';

/** A finished run's result: the spec's run result, with every node's output for workflow runs. */
export interface WorkflowResult {
  status: 'success';
  output: string;
  thinking: string;
  tool_traces: ToolTrace[];
  session_id: string;
  usage: Usage;
  metadata: RunMetadata;
  /** Output of each node that ran, by node id. */
  outputs: Record<string, JsonValue>;
}

/**
 * Aggregates a finished workflow deterministically: the output is the root's (as text), thinking and
 * tool traces are every agent's in tree order, metadata comes from the last agent that answered.
 */
export function assembleResult(workflow: Workflow, state: SchedulerState, sessionId: string): WorkflowResult {
  let thinking = '';
  const traces: ToolTrace[] = [];
  const errors: string[] = [];
  let lastAnswer = '';
  const outputs: Record<string, JsonValue> = {};
  for (const node of allNodes(workflow.root)) {
    const nodeState = state.nodes[node.id];
    if (nodeState?.status !== 'succeeded') continue;
    outputs[node.id] = nodeState.output ?? null;
    const agent = nodeState.agent;
    if (!agent) continue;
    thinking += agent.thinking;
    traces.push(...agent.traces);
    errors.push(...agent.errors);
    lastAnswer = agent.output ?? lastAnswer;
  }
  const output = outputText(state.nodes[workflow.root.id]?.output);
  const { input_tokens, output_tokens } = state.usage;
  // Some counts are Keel's estimate when a server sent no usage (model/client.ts).
  const estimated = Object.values(state.nodes).some((node) => node.agent?.usage.estimated === true);
  return {
    status: 'success',
    output,
    thinking,
    tool_traces: traces,
    session_id: sessionId,
    usage: {
      input_tokens,
      output_tokens,
      total_tokens: input_tokens + output_tokens,
      ...(estimated ? { estimated: true } : {}),
    },
    metadata: deriveMetadata(lastAnswer || output, errors),
    outputs,
  };
}
