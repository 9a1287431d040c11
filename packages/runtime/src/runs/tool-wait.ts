import type { AgentHooks } from '../agent/index.ts';
import type { JsonObject } from '../store/index.ts';
import type { ToolContext, ToolRegistry } from '../tools/index.ts';
import { SuspendRun } from '../workflow/index.ts';
import type { Execution } from './execution.ts';

/**
 * The agent's `waitIfNeeded` hook: a tool that waits on something outside the run (Tool.waitsFor, e.g.
 * get_agent_status with `wait`) parks the run as an approval does. The step closes as `waiting` with what
 * it waits for, the state is checkpointed with the call still pending, and the run suspends holding no
 * worker. Whoever ends the awaited thing puts the run back in the queue; the call is then asked again and
 * runs once the wait is over. Arguments the tool would refuse are left for the call itself to report.
 */
export function toolWaitHook(
  execution: Execution,
  tools: ToolRegistry,
  context: ToolContext,
): NonNullable<AgentHooks['waitIfNeeded']> {
  return async (call, args, _state, stepId) => {
    const tool = tools.has(call.name) ? tools.get(call.name) : undefined;
    if (!tool?.waitsFor) return;
    const parsed = tool.schema.safeParse(args);
    if (!parsed.success) return;
    const wait = await tool.waitsFor(context, parsed.data);
    if (!wait) return;
    await execution.store.finishStep(stepId, {
      status: 'waiting',
      detail: { waiting_for: wait.detail as JsonObject, tool_call_id: call.id },
    });
    await execution.checkpointer.saveIgnoringPause(stepId);
    throw new SuspendRun('waiting', () => wait.ready());
  };
}
