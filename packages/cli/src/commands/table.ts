import type { Command } from 'commander';
import type { CliIo } from '../io.ts';
import { type CommandName, commandHelp } from './descriptions.ts';

type Register = (program: Command, io: CliIo) => void;

/**
 * How to load each top-level `keel` command. A command's module (and with it the runtime, the store or the
 * terminal UI) is imported only when that command runs, so `keel --version` and `keel --help` start in a
 * few tens of milliseconds.
 */
export const commandLoaders: Record<CommandName, () => Promise<Register>> = {
  run: async (): Promise<Register> => (await import('./run.ts')).registerRun,
  chat: async (): Promise<Register> => (await import('./chat.ts')).registerChat,
  tui: async (): Promise<Register> => (await import('../tui/index.ts')).registerTui,
  acp: async (): Promise<Register> => (await import('../acp/index.ts')).registerAcp,
  runs: async (): Promise<Register> => (await import('./runs.ts')).registerRuns,
  approvals: async (): Promise<Register> => (await import('./approvals.ts')).registerApprovals,
  timeline: async (): Promise<Register> => (await import('./timeline.ts')).registerTimeline,
  artifacts: async (): Promise<Register> => (await import('./artifacts.ts')).registerArtifacts,
  worker: async (): Promise<Register> => (await import('./worker.ts')).registerWorker,
  skills: async (): Promise<Register> => (await import('./skills.ts')).registerSkills,
  config: async (): Promise<Register> => (await import('./config.ts')).registerConfig,
  trust: async (): Promise<Register> => (await import('./trust.ts')).registerTrust,
  untrust: async (): Promise<Register> => (await import('./trust.ts')).registerUntrust,
  init: async (): Promise<Register> => (await import('./init.ts')).registerInit,
  doctor: async (): Promise<Register> => (await import('./doctor.ts')).registerDoctor,
  // Handed the table itself: its script lists every command (an import of this module would be a cycle).
  completion: async (): Promise<Register> => {
    const { registerCompletion } = await import('./completion.ts');
    return (program, io) => registerCompletion(program, io, commandLoaders);
  },
};

export function isCommandName(name: string | undefined): name is CommandName {
  return name !== undefined && Object.hasOwn(commandHelp, name);
}
