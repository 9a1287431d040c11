// The exec_command tool and what it stands on: the shell parser, the command policy with its lists,
// confinement to the workdir, and the runner that spawns the process.

export type { ArgumentRule } from './command-arguments.ts';
export { argumentRules } from './command-arguments.ts';
export { commandEnvironment, defaultCommandEnv, minimalCommandEnvironment } from './command-env.ts';
export type { Invocation } from './command-invocations.ts';
export { invocationsOf } from './command-invocations.ts';
export type { CommandPolicyOptions, CommandVerdict } from './command-policy.ts';
export { CommandPolicy, createCommandPolicy } from './command-policy.ts';
export type { CommandOutcome, RunCommandOptions } from './command-runner.ts';
export { runCommand } from './command-runner.ts';
export { defaultAllowedCommands } from './default-allowed-commands.ts';
export {
  defaultCommandTimeoutMs,
  execCommandTool,
  maxCommandOutputChars,
  maxCommandTimeoutMs,
  runShellCommand,
} from './exec-command.ts';
export type { ShellRedirect, ShellWord, SimpleCommand } from './shell-parser.ts';
export { parseCommandLine, ShellSyntaxError } from './shell-parser.ts';
export type { UnconfinedCommands } from './unconfined-commands.ts';
export { unconfinedAdvice } from './unconfined-commands.ts';
