import type { Command } from 'commander';
import type { CliIo } from '../io.ts';

type Register = (program: Command, io: CliIo) => void;

/**
 * Every top-level `keel` command: its one-line description, and how to load it. A command's module (and
 * with it the runtime, the store or the terminal UI) is imported only when that command runs, so
 * `keel --version` and `keel --help` start in a few tens of milliseconds.
 */
export const commandTable = {
  run: {
    usage: '[options] <prompt>',
    description: 'Run the coding agent on a prompt and stream its answer',
    load: async (): Promise<Register> => (await import('./run.ts')).registerRun,
  },
  chat: {
    usage: '[options]',
    description: 'Chat with the agent: each line is a turn of one session (Ctrl-D or /quit to end)',
    load: async (): Promise<Register> => (await import('./chat.ts')).registerChat,
  },
  tui: {
    usage: '[options]',
    description: 'Open the full-screen terminal chat (a conversation of runs in one session)',
    load: async (): Promise<Register> => (await import('../tui/command.ts')).registerTui,
  },
  runs: {
    description: 'List, show, watch and control runs (from any process)',
    load: async (): Promise<Register> => (await import('./runs.ts')).registerRuns,
  },
  approvals: {
    description: 'Approvals and questions runs wait on: list, approve, reject, answer',
    load: async (): Promise<Register> => (await import('./approvals.ts')).registerApprovals,
  },
  timeline: {
    description: 'A run’s steps, checkpoints, approvals and artifacts',
    load: async (): Promise<Register> => (await import('./timeline.ts')).registerTimeline,
  },
  artifacts: {
    description: 'Artifacts runs produced',
    load: async (): Promise<Register> => (await import('./artifacts.ts')).registerArtifacts,
  },
  worker: {
    usage: '[options]',
    description:
      'Execute queued runs from the store until Ctrl-C (start several workers to run more at once)',
    load: async (): Promise<Register> => (await import('./worker.ts')).registerWorker,
  },
  skills: {
    description: 'List, show, enable and disable skills (instructions the agent reads with read_skill)',
    load: async (): Promise<Register> => (await import('./skills.ts')).registerSkills,
  },
  config: {
    description: 'Show and change the configuration',
    load: async (): Promise<Register> => (await import('./config.ts')).registerConfig,
  },
  init: {
    usage: '[options]',
    description: "Create the project's .runtime/config.json (settings over the global ones)",
    load: async (): Promise<Register> => (await import('./init.ts')).registerInit,
  },
} as const;

export type CommandName = keyof typeof commandTable;

export function isCommandName(name: string | undefined): name is CommandName {
  return name !== undefined && Object.hasOwn(commandTable, name);
}

/** How `keel --help` lists a command: its name, then `[options]` and arguments as its module declares them. */
export function helpTerm(name: CommandName): string {
  const entry = commandTable[name];
  return 'usage' in entry ? `${name} ${entry.usage}` : name;
}

/** The description of a top-level command, from the table (its module registers the rest). */
export function describe(name: CommandName): string {
  return commandTable[name].description;
}
