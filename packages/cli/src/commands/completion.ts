import { Argument, Command, type Help } from 'commander';
import { printError } from '../cli-runtime.ts';
import type { CliIo } from '../io.ts';
import { type CompletionCommand, completionScripts, type Shell, shells } from './completion-scripts.ts';
import { describe } from './descriptions.ts';

const install = `
Install it once; print it again after upgrading keel (it lists this version's commands and options):
  bash  add to ~/.bashrc:   source <(keel completion bash)
        or: keel completion bash > ~/.local/share/bash-completion/completions/keel
  zsh   add to ~/.zshrc, after compinit:   source <(keel completion zsh)
        or: keel completion zsh > "\${fpath[1]}/_keel"   (a folder of your fpath)
  fish  keel completion fish > ~/.config/fish/completions/keel.fish
`;

/** How each top-level command registers itself (commands/table.ts). */
type CommandLoaders = Record<string, () => Promise<(program: Command, io: CliIo) => void>>;

/** `keel completion bash|zsh|fish`: a completion script made from the real command tree (`loaders`). */
export function registerCompletion(program: Command, io: CliIo, loaders: CommandLoaders): void {
  program
    .command('completion')
    .description(describe('completion'))
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(shells))
    .addHelpText('after', install)
    .action(async (shell: Shell) => {
      try {
        io.out.write(completionScripts[shell](await completionTree(program, io, loaders)));
      } catch (error) {
        printError(io, error);
        io.exitCode = 1;
      }
    });
}

/**
 * Every command path (`keel`, `keel runs`, `keel runs list`…) with its subcommands and options. The
 * program being run loads only the command it runs, so the tree is a second program with every command
 * loaded (their modules, not the runtime's work), keeping the root's own options (--version).
 */
export async function completionTree(
  root: Command,
  io: CliIo,
  loaders: CommandLoaders,
): Promise<CompletionCommand[]> {
  const program = new Command(root.name());
  for (const option of root.options) program.addOption(option);
  for (const load of Object.values(loaders)) (await load())(program, io);
  const help = program.createHelp();
  const paths: CompletionCommand[] = [];
  const walk = (command: Command, path: string): void => {
    const commands = help.visibleCommands(command);
    paths.push({
      path,
      commands: commands.map((sub) => ({ name: sub.name(), description: firstLine(help, sub) })),
      options: help.visibleOptions(command).map((option) => ({
        ...(option.long ? { long: option.long } : {}),
        ...(option.short ? { short: option.short } : {}),
        valued: option.required,
        description: option.description.split('\n')[0] ?? '',
      })),
    });
    for (const sub of commands) {
      // `keel help <command>` (Commander's own help command) completes the names beside it.
      if (sub.name() === 'help' && sub.commands.length === 0) {
        paths.push({ path: `${path} help`, commands: siblingsOf(help, commands), options: [] });
      } else {
        walk(sub, `${path} ${sub.name()}`);
      }
    }
  };
  walk(program, program.name());
  return paths;
}

function siblingsOf(help: Help, commands: readonly Command[]): CompletionCommand['commands'] {
  return commands
    .filter((command) => command.name() !== 'help')
    .map((command) => ({ name: command.name(), description: firstLine(help, command) }));
}

function firstLine(help: Help, command: Command): string {
  return help.subcommandDescription(command).split('\n')[0] ?? '';
}
