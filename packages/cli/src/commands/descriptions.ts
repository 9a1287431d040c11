// What `keel --help` says of each top-level command. Kept apart from the loaders (commands/table.ts) so
// that a command's module can read its own description without importing the table that imports it.

export const commandHelp = {
  run: {
    usage: '[options] <prompt>',
    description: 'Run the coding agent on a prompt and stream its answer',
  },
  chat: {
    usage: '[options]',
    description: 'Chat with the agent: each line is a turn of one session (Ctrl-D or /quit to end)',
  },
  acp: {
    description: 'Serve Keel as an Agent Client Protocol agent on stdin/stdout (for editors such as Zed)',
  },
  tui: {
    usage: '[options]',
    description: 'Open the full-screen terminal chat (a conversation of runs in one session)',
  },
  runs: {
    description: 'List, show, watch and control runs (from any process)',
  },
  approvals: {
    description: 'Approvals and questions runs wait on: list, approve, reject, answer',
  },
  timeline: {
    description: 'A run’s steps, checkpoints, approvals and artifacts',
  },
  artifacts: {
    description: 'Artifacts runs produced',
  },
  worker: {
    usage: '[options]',
    description:
      'Execute queued runs from the store until Ctrl-C (start several workers to run more at once)',
  },
  skills: {
    description: 'List, show, enable and disable skills (instructions the agent reads with read_skill)',
  },
  config: {
    description: 'Show and change the configuration',
  },
  trust: {
    usage: '[options] [dir]',
    description:
      "Trust a folder's .runtime/config.json as it is now: it may set commands, endpoints, sandbox and security until it changes (--list shows them)",
  },
  untrust: {
    usage: '[dir]',
    description: "Stop trusting a folder's .runtime/config.json",
  },
  init: {
    usage: '[options]',
    description: "Create the project's .runtime/config.json (settings over the global ones)",
  },
  doctor: {
    usage: '[options]',
    description:
      'Check what runs need: Node, git, the model, its endpoint and its models, whether it calls tools, the sandbox, language servers, the project config, the store',
  },
  completion: {
    usage: '<shell>',
    description:
      'Print a completion script for bash, zsh or fish (keel completion --help says how to install it)',
  },
} as const;

export type CommandName = keyof typeof commandHelp;

/** How `keel --help` lists a command: its name, then `[options]` and arguments as its module declares them. */
export function helpTerm(name: CommandName): string {
  const entry = commandHelp[name];
  return 'usage' in entry ? `${name} ${entry.usage}` : name;
}

/** The description of a top-level command (its module registers the rest). */
export function describe(name: CommandName): string {
  return commandHelp[name].description;
}
