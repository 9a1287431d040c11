/** The tags of keel-web's operations, in the order the OpenAPI document lists them, with what each groups. */
export const apiTags = [
  {
    name: 'runs',
    description: 'Durable runs: start one (202), list, read its detail, timeline and events, control it.',
  },
  {
    name: 'approvals',
    description: "Tool calls, workflow nodes and questions waiting for a human's decision.",
  },
  { name: 'artifacts', description: 'What runs produced: the record and the payload as stored.' },
  { name: 'audit', description: 'The audit log of runtime actions and API requests.' },
  {
    name: 'run',
    description: "The spec's synchronous run: the result when the run ends, or its events as they come.",
  },
  { name: 'tools', description: 'One tool call, as the agent would make it.' },
  { name: 'sessions', description: 'Conversations that a run continues with `session_id`.' },
  { name: 'skills', description: 'The skills a run in a workdir gets, and turning them on or off.' },
  { name: 'agents', description: 'Sub-agents: spawn, read, kill, resume.' },
  {
    name: 'config',
    description: 'The effective configuration (secrets hidden), its update, and whether a run can start.',
  },
  { name: 'server', description: "The server's totals and what its console needs to know." },
  {
    name: 'projects',
    description:
      "Web projects: a directory with its guide and chat session; the server's directories to pick one.",
  },
  { name: 'tasks', description: "A project's development tasks, each on its own branch." },
  { name: 'health', description: 'Whether the server is up; open without the key.' },
];
