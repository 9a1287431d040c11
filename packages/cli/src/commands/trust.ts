import { resolve } from 'node:path';
import {
  globalConfigPath,
  readEnv,
  trustedFolders,
  trustFolder,
  untrustFolder,
} from '@keel/runtime/internal';
import type { Command } from 'commander';
import { printError, printJson } from '../cli-runtime.ts';
import type { CliIo } from '../io.ts';
import { describe } from './descriptions.ts';

interface TrustFlags {
  list?: boolean;
  json?: boolean;
}

/**
 * `keel trust [dir]` / `keel trust --list`: the global config's `trusted_folders`, the folders whose
 * project `.runtime/config.json` applies in full (commands, endpoints, sandbox, security policy…).
 */
export function registerTrust(program: Command, io: CliIo): void {
  program
    .command('trust')
    .description(describe('trust'))
    .argument('[dir]', 'the folder to trust, with its subfolders (default: current directory)')
    .option('--list', 'list the trusted folders')
    .option('--json', 'print JSON (with --list)')
    .action((dir: string | undefined, flags: TrustFlags) =>
      guarded(io, async () => {
        const home = readEnv(io.env).home;
        if (flags.list) {
          const folders = trustedFolders(home);
          if (flags.json) printJson(io, { file: globalConfigPath(home), trusted_folders: folders });
          else if (folders.length === 0) io.out.write(`No trusted folders (${globalConfigPath(home)}).\n`);
          else io.out.write(`${folders.join('\n')}\n`);
          return;
        }
        const folder = await trustFolder(home, resolve(io.cwd, dir ?? '.'));
        io.out.write(
          `Trusted ${folder}: its .runtime/config.json applies in full (${globalConfigPath(home)}).\n`,
        );
      }),
    );
}

/** `keel untrust [dir]`: removes a folder from the trust list. */
export function registerUntrust(program: Command, io: CliIo): void {
  program
    .command('untrust')
    .description(describe('untrust'))
    .argument('[dir]', 'the folder to remove from the trust list (default: current directory)')
    .action((dir: string | undefined) =>
      guarded(io, async () => {
        const home = readEnv(io.env).home;
        const { folder, removed, stillTrusted } = await untrustFolder(home, resolve(io.cwd, dir ?? '.'));
        io.out.write(removed ? `No longer trusted: ${folder}\n` : `${folder} was not in the trust list.\n`);
        if (stillTrusted) {
          io.err.write(`Note: ${folder} is still trusted through a folder above it (keel trust --list).\n`);
        }
      }),
    );
}

async function guarded(io: CliIo, action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    printError(io, error);
    io.exitCode = 1;
  }
}
