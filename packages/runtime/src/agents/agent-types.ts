import type { SubAgentType } from '../store/index.ts';
import type { ToolRegistry, ToolTraits } from '../tools/index.ts';
import { builtinSpecialists, type Capability, type Specialist } from './specialists.ts';

/**
 * Never offered to a sub-agent: nobody answers its questions, and sub-agents do not spawn sub-agents of
 * their own (one level keeps the fan-out within the limit the parent sees).
 */
export const agentMetaToolNames = ['spawn_agent', 'get_agent_status', 'kill_agent', 'resume_agent'];
const neverTools = ['question', ...agentMetaToolNames];

/** The run's tools narrowed to what a sub-agent of `type` may use (ToolRegistry.filter). */
export function toolsForType(type: SubAgentType, tools: ToolRegistry): ToolRegistry {
  return toolsForSpecialist(specialistNamed(type), tools);
}

/** The run's tools narrowed to what `specialist` may use, never the agent meta tools or `question`. */
export function toolsForSpecialist(specialist: Specialist, tools: ToolRegistry): ToolRegistry {
  const allowed = specialist.tools;
  const names = tools.names().filter((name) => {
    if (neverTools.includes(name)) return false;
    if (allowed === 'all') return true;
    if (Array.isArray(allowed)) return allowed.includes(name);
    return capabilitiesMet(
      tools.traitsOf(name),
      (allowed as { capabilities: readonly Capability[] }).capabilities,
    );
  });
  return tools.filter({ include: names });
}

/** Whether a tool with these traits needs only the given capabilities. */
function capabilitiesMet(traits: ToolTraits, capabilities: readonly Capability[]): boolean {
  if (traits.readOnly) return capabilities.includes('read');
  if (!traits.writesFiles && !traits.runsCommands) return false;
  return (
    (!traits.writesFiles || capabilities.includes('edit')) &&
    (!traits.runsCommands || capabilities.includes('command'))
  );
}

/** The system prompt's section for a sub-agent of `type`, after the coding agent's own. */
export function promptForType(type: SubAgentType): string {
  return [
    '',
    '',
    '# Your role',
    ...specialistNamed(type).role,
    '- Another agent spawned you for this one task. Work on your own: nobody will answer questions.',
    '- Your final answer goes back to that agent as your output: make it complete and self-contained.',
  ].join('\n');
}

/** The system prompt's section for a specialist working on one task of a workflow (a graph's task). */
export function promptForSpecialist(specialist: Specialist): string {
  return [
    '',
    '',
    '# Your role',
    ...specialist.role,
    '- You work on one task of a larger piece of work, on your own: nobody will answer questions.',
    '- Your final answer is the task’s result: make it complete and self-contained.',
  ].join('\n');
}

function specialistNamed(name: string): Specialist {
  return builtinSpecialists.find((each) => each.name === name)!;
}
