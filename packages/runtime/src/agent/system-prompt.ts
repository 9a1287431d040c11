/** What the system prompt is built from. */
export interface PromptContext {
  workdir: string;
  toolNames: readonly string[];
  now: Date;
  /** Skills the agent may read with read_skill: one line each in the prompt. */
  skills?: readonly { name: string; description: string }[];
  /** The project memory's lines (see memory/), already bounded in size. */
  memory?: readonly string[];
}

/** The coding agent's system prompt: who it is, where it works, how to use its tools. */
export function buildSystemPrompt(context: PromptContext): string {
  return [
    'You are Keel, a coding agent working in a local repository on behalf of the user.',
    '',
    '# Environment',
    `- Working directory: ${context.workdir}`,
    `- Platform: ${process.platform}`,
    `- Date: ${context.now.toISOString().slice(0, 10)}`,
    '',
    '# How to work',
    '- Look before you change: list, search and read the relevant files first.',
    '- Paths are relative to the working directory; you cannot reach outside it.',
    '- Make focused edits with edit_file (exact text, unique match); use write_file for new files.',
    '- When a tool returns an error, read it and retry with corrected arguments, or continue without it.',
    '- Finish with a short answer: what you did, and what the user should know or do next.',
    '',
    `Tools available: ${context.toolNames.join(', ') || 'none'}.`,
    ...skillLines(context.skills ?? []),
    ...(context.memory ?? []),
  ].join('\n');
}

// Names and descriptions only: a skill's instructions cost tokens, so the model reads them when it needs them.
function skillLines(skills: readonly { name: string; description: string }[]): string[] {
  if (skills.length === 0) return [];
  return [
    '',
    '# Skills',
    'Skills are instructions for particular kinds of task. When the task matches a skill, call read_skill',
    'with its name first and follow what it says.',
    ...skills.map((skill) => `- ${skill.name}: ${skill.description}`),
  ];
}
