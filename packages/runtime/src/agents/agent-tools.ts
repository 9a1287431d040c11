import { z } from 'zod';
import type { Run } from '../store/index.ts';
import { defineTool, type Tool, ToolRegistry } from '../tools/index.ts';
import { finishedAgentStatuses } from './agent-record.ts';
import { toolsForType } from './agent-types.ts';
import type { AgentsApi } from './agents-api.ts';
import { inheritedToolFilter } from './inherited-tools.ts';
import { spawnRequestSchema } from './spawn-request.ts';

const agentIdSchema = z.string().min(1).describe('The id spawn_agent returned (agt_…).');

const spawnSchema = spawnRequestSchema.pick({ task: true, type: true, timeout: true });
const statusSchema = z.object({
  agent_id: agentIdSchema,
  wait: z
    .boolean()
    .optional()
    .describe(
      'true: wait until the sub-agent has finished, then answer with its final record (your run pauses ' +
        'meanwhile, at no cost). Default false: answer at once with its current status.',
    ),
});
const agentSchema = z.object({ agent_id: agentIdSchema });

const json = (value: unknown) => JSON.stringify(value, null, 2);

/**
 * The agent-only meta tools over a run's own sub-agents: spawn_agent, get_agent_status, kill_agent and
 * resume_agent (spec section 4). A run sees only the sub-agents it spawned. get_agent_status with `wait`
 * parks the run (Tool.waitsFor) until the sub-agent has finished, holding no worker meanwhile. `tools` are
 * the run's tools before its request's include_tools/exclude_tools: a sub-agent gets its type's share of
 * them narrowed by that filter, never a tool its parent could not use.
 */
export function createAgentTools(agents: AgentsApi, parent: Run, tools?: ToolRegistry): Tool[] {
  const scope = { parent };
  const spawn = defineTool({
    name: 'spawn_agent',
    traits: { kind: 'agent', readOnly: false },
    description:
      'Start a sub-agent that works on one task on its own, in parallel with you, in the same ' +
      'directory: research (reads and searches), test (reads and runs commands), code (reads and edits ' +
      'files) or generic (the coding tools). It does not see your conversation: give it a complete task. ' +
      'Returns its agent_id at once; get its result with get_agent_status(agent_id, wait: true). ' +
      'Sub-agents still working when you give your final answer are stopped, so wait for those you need.',
    schema: spawnSchema,
    execute: async (_ctx, args) => {
      const typeTools = tools && toolsForType(args.type ?? 'generic', tools).names();
      const agent = await agents.spawn(args, { parent, tools: inheritedToolFilter(parent.input, typeTools) });
      return json({ agent_id: agent.agent_id, status: agent.status, created_at: agent.created_at });
    },
  });
  const status = defineTool({
    name: 'get_agent_status',
    traits: { kind: 'agent', readOnly: true },
    description:
      'The status of a sub-agent you spawned (pending, running, completed, failed, killed, timeout), ' +
      'with its output once completed or its error once it failed. With wait: true, waits until it ' +
      'has finished.',
    schema: statusSchema,
    execute: async (_ctx, args) => json(await agents.get(args.agent_id, scope)),
    waitsFor: async (_ctx, args) => {
      if (!args.wait) return null;
      const agent = await agents.get(args.agent_id, scope).catch(() => null);
      if (!agent || finishedAgentStatuses.includes(agent.status)) return null;
      return { detail: { agent_id: agent.agent_id }, ready: () => agents.ended(agent.agent_id) };
    },
  });
  const kill = defineTool({
    name: 'kill_agent',
    traits: { kind: 'agent', readOnly: false },
    description: 'Stop a pending or running sub-agent you spawned. Its status becomes killed.',
    schema: agentSchema,
    execute: async (_ctx, args) => json(await agents.kill(args.agent_id, scope)),
  });
  const resume = defineTool({
    name: 'resume_agent',
    traits: { kind: 'agent', readOnly: false },
    description:
      'Start a completed, failed or timed-out sub-agent again on its original task, with its previous ' +
      'output or error to continue from. Returns its record (pending).',
    schema: agentSchema,
    execute: async (_ctx, args) => {
      const agent = await agents.resume(args.agent_id, scope);
      return json({ agent_id: agent.agent_id, status: agent.status, created_at: agent.created_at });
    },
  });
  return [spawn, status, kill, resume];
}

/** `tools` plus the sub-agent meta tools for `parent`; a tool of the same name in `tools` is kept. */
export function withAgentTools(tools: ToolRegistry, agents: AgentsApi, parent: Run): ToolRegistry {
  const added = createAgentTools(agents, parent, tools).filter((tool) => !tools.has(tool.name));
  return new ToolRegistry([...tools.list(), ...added]);
}

/**
 * A run's tools as its place among sub-agents decides: a sub-agent's narrowed to its type (no meta tools:
 * one level); any other run's with the meta tools, when its runtime has the sub-agents API.
 */
export function toolsForRun(tools: ToolRegistry, run: Run, agents: AgentsApi | undefined): ToolRegistry {
  if (run.agent) return toolsForType(run.agent.type, tools);
  return agents ? withAgentTools(tools, agents, run) : tools;
}
