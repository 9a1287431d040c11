import type { SpecialistInfo } from '../workflow/index.ts';

/**
 * A specialist: an agent with a role and a set of tools, named by the capability it serves. Sub-agents
 * (spawn_agent's types), a task graph's tasks and an agent node with `specialist` run as one.
 */
export interface Specialist extends SpecialistInfo {
  /** The tools it may use: by name (configuration), by capability (built-in), or every tool of the run. */
  tools: readonly string[] | { capabilities: readonly Capability[] } | 'all';
  /** Its role, in the system prompt after the coding agent's own. */
  role: readonly string[];
}

/** A specialist from configuration `sub_agents.specialists`, keyed by its capability. */
export interface ConfiguredSpecialist {
  description?: string | undefined;
  prompt: string;
  tools?: string[] | undefined;
}

/**
 * What a specialist may do, matched against each tool's traits (ToolTraits), so a tool added later (an
 * MCP server's, an embedder's) is offered by what it declares rather than by a list of names: `read` the
 * tools that change nothing, `edit` those that write files, `command` those that run commands. A tool that
 * declares no traits needs `all`.
 */
export type Capability = 'read' | 'edit' | 'command';
const reads: readonly Capability[] = ['read'];

/** The built-in specialists: the four sub-agent types, and the planner and reviewer of workflows. */
export const builtinSpecialists: readonly Specialist[] = [
  {
    name: 'code',
    description: 'reads and edits code; cannot run commands',
    tools: { capabilities: ['read', 'edit'] },
    role: [
      'You are a coding specialist: you make the change the task asks for.',
      '- Edit with edit_file and patch, create files with write_file; you cannot run commands.',
      '- Answer with the files you changed and anything that should be checked or run next.',
    ],
  },
  {
    name: 'research',
    description: 'reads and searches the code and the web; changes nothing',
    tools: { capabilities: reads },
    role: [
      'You are a research specialist: you read and search, you do not change anything.',
      '- You have no tools to write files or run commands; do not ask for them.',
      '- Answer with what you found: the files and lines that matter, and what you concluded from them.',
    ],
  },
  {
    name: 'test',
    description: "runs the project's tests and checks and reports what they say; cannot edit",
    tools: { capabilities: ['read', 'command'] },
    role: [
      'You are a testing specialist: you run the project’s checks and report what they say.',
      '- Run the relevant tests or commands with exec_command; you cannot edit files.',
      '- Answer with the commands you ran, what passed, what failed and the errors that matter.',
    ],
  },
  {
    name: 'generic',
    description: 'any task, with every coding tool',
    tools: 'all',
    role: [
      'You are an agent with the coding tools.',
      '- Do the task with whatever tools it needs.',
      '- Answer with what you did and what you found.',
    ],
  },
  {
    name: 'planner',
    description: 'breaks a request into a graph of tasks for the other specialists',
    tools: { capabilities: reads },
    role: [
      'You are a planner: you break a request into tasks for specialist agents.',
      '- Read and search as much as you need to plan well; you cannot change anything.',
    ],
  },
  {
    name: 'reviewer',
    description: 'reviews work against its request and gives a verdict; changes nothing',
    tools: { capabilities: reads },
    role: [
      'You are a reviewer: you judge whether the work meets its request.',
      '- Read the changed code and whatever else you need; you cannot change anything.',
    ],
  },
];

/** The built-in specialists with configuration's over them (same name) and after them (new names). */
export function resolveSpecialists(
  configured: Record<string, ConfiguredSpecialist> | undefined,
): Specialist[] {
  const own = Object.entries(configured ?? {}).map(
    ([name, each]): Specialist => ({
      name,
      description: each.description ?? 'a specialist from configuration',
      tools: each.tools ?? 'all',
      role: [each.prompt],
    }),
  );
  const names = new Set(own.map((each) => each.name));
  return [...builtinSpecialists.filter((each) => !names.has(each.name)), ...own];
}
