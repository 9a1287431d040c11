import type { SubAgentType } from '../store/index.ts';
import type { ToolRegistry } from '../tools/index.ts';

/** The kinds of sub-agent, as `POST /agent/spawn` and spawn_agent name them. */
export const subAgentTypes = [
  'code',
  'research',
  'test',
  'generic',
] as const satisfies readonly SubAgentType[];

// Tools are named rather than imported: a run's registry may hold more (MCP, skills, an embedder's own)
// or fewer (include_tools), and a name it does not hold is simply not offered.
const readTools = [
  'read_file',
  'list_directory',
  'grep',
  'glob',
  'search_files',
  'list_file_changes',
  'webfetch',
  'websearch',
  'lsp_diagnostics',
  'lsp_definition',
  'lsp_references',
  'lsp_hover',
  'todo_write',
  'todo_read',
  'list_skills',
  'read_skill',
];
const editTools = ['write_file', 'edit_file', 'patch', 'undo_file', 'redo_file'];
const commandTools = ['exec_command'];

/**
 * Never offered to a sub-agent: nobody answers its questions, and sub-agents do not spawn sub-agents of
 * their own (one level keeps the fan-out within the limit the parent sees).
 */
export const agentMetaToolNames = ['spawn_agent', 'get_agent_status', 'kill_agent', 'resume_agent'];
const neverTools = ['question', ...agentMetaToolNames];

/** Which tools each type may use: research reads, test reads and runs commands, code reads and edits. */
const allowedTools: Record<SubAgentType, readonly string[] | 'all'> = {
  research: readTools,
  test: [...readTools, ...commandTools],
  code: [...readTools, ...editTools],
  generic: 'all',
};

/** The run's tools narrowed to what a sub-agent of `type` may use (ToolRegistry.filter). */
export function toolsForType(type: SubAgentType, tools: ToolRegistry): ToolRegistry {
  const allowed = allowedTools[type];
  const names = tools
    .names()
    .filter((name) => !neverTools.includes(name) && (allowed === 'all' || allowed.includes(name)));
  return tools.filter({ include: names });
}

const roles: Record<SubAgentType, string[]> = {
  research: [
    'You are a research sub-agent: you read and search, you do not change anything.',
    '- You have no tools to write files or run commands; do not ask for them.',
    '- Answer with what you found: the files and lines that matter, and what you concluded from them.',
  ],
  test: [
    'You are a testing sub-agent: you run the project’s checks and report what they say.',
    '- Run the relevant tests or commands with exec_command; you cannot edit files.',
    '- Answer with the commands you ran, what passed, what failed and the errors that matter.',
  ],
  code: [
    'You are a coding sub-agent: you make the change the task asks for.',
    '- Edit with edit_file and patch, create files with write_file; you cannot run commands.',
    '- Answer with the files you changed and anything that should be checked or run next.',
  ],
  generic: [
    'You are a sub-agent with the coding tools.',
    '- Do the task with whatever tools it needs.',
    '- Answer with what you did and what you found.',
  ],
};

/** The system prompt's section for a sub-agent of `type`, after the coding agent's own. */
export function promptForType(type: SubAgentType): string {
  return [
    '',
    '',
    '# Your role',
    ...roles[type],
    '- Another agent spawned you for this one task. Work on your own: nobody will answer questions.',
    '- Your final answer goes back to that agent as your output: make it complete and self-contained.',
  ].join('\n');
}
