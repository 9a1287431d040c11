import { type AgentState, executeAgent, newAgentState } from '../agent/index.ts';
import { KeelError, toErrorObject } from '../errors/index.ts';
import { costOf } from '../model/index.ts';
import type { JsonObject } from '../store/index.ts';
import type { NodeState, WorkflowNode } from '../workflow/index.ts';
import type { Execution } from './execution.ts';
import { approvalHook, askHook } from './human-wait.ts';
import { toolWaitHook } from './tool-wait.ts';

/** Runs one agent node from its saved conversation (or afresh), wiring its step boundaries to the store. */
export async function runAgentNode(
  execution: Execution,
  node: Extract<WorkflowNode, { kind: 'agent' }>,
  nodeState: NodeState,
  prompt: string,
  signal: AbortSignal,
): Promise<string> {
  const { setup, store, run, state, budget } = execution;
  const specialist = node.specialist === undefined ? undefined : setup.specialist(node.specialist);
  if (node.specialist !== undefined && !specialist) {
    throw new KeelError(
      'AGENT_ERROR',
      `Node '${node.id}' names specialist '${node.specialist}', which does not exist.`,
      {
        node_id: node.id,
        specialists: setup.specialists.map((each) => each.name),
      },
    );
  }
  const tools = (specialist?.tools ?? setup.tools).filter({
    ...(node.include_tools ? { include: node.include_tools } : {}),
    ...(node.exclude_tools ? { exclude: node.exclude_tools } : {}),
  });
  if (!nodeState.agent) {
    const user = setup.userMessage(prompt, node.id);
    nodeState.agent = newAgentState([
      { role: 'system', content: setup.systemPrompt(tools.names()) + (specialist?.role ?? '') },
      ...setup.history(),
      user,
    ]);
    setup.appendToSession(user, node.id);
  }
  const agent: AgentState = nodeState.agent;
  // The run's usage grows by what each committed step spent, so a checkpoint never counts a turn twice.
  let counted = { ...agent.usage };
  const { limits } = budget;

  return executeAgent(
    {
      client: setup.client,
      tools,
      context: setup.toolContext(signal),
      loop:
        limits.enabled && limits.loop_detect_turns > 0
          ? { turns: limits.loop_detect_turns, threshold: limits.loop_similarity_threshold }
          : null,
      contextBudget: setup.contextBudget ?? null,
      hooks: {
        emit: execution.emit,
        onMessage: (message) => setup.appendToSession(message, node.id),
        startStep: async (kind, detail) =>
          (
            await store.startStep({
              run_id: run.id,
              node_id: node.id,
              kind,
              attempt: run.attempt,
              detail: detail as JsonObject,
            })
          ).id,
        commitStep: async (stepId, current) => {
          const spent = {
            input_tokens: current.usage.input_tokens - counted.input_tokens,
            output_tokens: current.usage.output_tokens - counted.output_tokens,
          };
          state.usage.input_tokens += spent.input_tokens;
          state.usage.output_tokens += spent.output_tokens;
          state.cost_usd += costOf(setup.price, spent);
          counted = { ...current.usage };
          // The step's end and its checkpoint in one write (one commit on SQLite, one statement on PostgreSQL).
          await execution.checkpointer.save(stepId, { finishStep: true });
        },
        failStep: async (stepId, error) => {
          const cancelled = KeelError.is(error) && error.code === 'CANCELLED';
          await store
            .finishStep(stepId, { status: cancelled ? 'cancelled' : 'failed', error: toErrorObject(error) })
            .catch(() => undefined);
        },
        spend: (delta, enforce) => budget.spend(delta, enforce),
        loop: (similarity) => budget.loop(similarity),
        takeUserInputs: async () => {
          const pending = await store.pendingUserInputs(run.id);
          // After the await: parallel agents each get a message once, and a checkpointed one never again.
          state.user_inputs ??= [];
          const shown = new Set(state.user_inputs);
          const fresh = pending.filter((input) => !shown.has(input.id));
          state.user_inputs.push(...fresh.map((input) => input.id));
          return fresh.map((input) => input.content);
        },
        needsApproval: (call, args) => setup.needsApproval(call, args),
        approval: approvalHook(execution, node.id),
        ask: askHook(execution, node.id),
        waitIfNeeded: toolWaitHook(execution, tools, setup.toolContext(signal)),
      },
    },
    agent,
  );
}
