import { resolve } from 'node:path';
import { loadConfigReport } from '@keel/runtime';
import {
  approvedProjectConfigs,
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
import { ignoredLines, shellWord } from './project-trust.ts';

interface TrustFlags {
  list?: boolean;
  json?: boolean;
}

/**
 * `keel trust [dir]` / `keel trust --list`: the global config's approvals of project files. Trusting
 * approves `<dir>/.runtime/config.json` as it is now (the keys it asks for that need trust, shown): it
 * applies them while it asks for exactly those; a change, a file in a subfolder or another clone asks
 * again (docs/decisions/2026-11-28-trust-pinned-to-content.md).
 */
export function registerTrust(program: Command, io: CliIo): void {
  program
    .command('trust')
    .description(describe('trust'))
    .argument(
      '[dir]',
      'the folder whose .runtime/config.json to approve as it is now (default: current directory)',
    )
    .option('--list', 'list the approved project files')
    .option('--json', 'print JSON (with --list)')
    .action((dir: string | undefined, flags: TrustFlags) =>
      guarded(io, async () => {
        const home = readEnv(io.env).home;
        if (flags.list) return list(io, home, flags.json === true);
        // What the file asks for now, untrusted: exactly what is shown is what gets approved.
        const report = loadConfigReport(home, resolve(io.cwd, dir ?? '.'), false);
        const asks = report.ignored.filter((entry) => entry.kind !== 'trust-list');
        const approval = await trustFolder(home, report.projectDir, report.pin);
        io.out.write(
          asks.length > 0
            ? `Trusted ${approval.file} as it is now; these settings apply:
${ignoredLines(asks)}
`
            : `Trusted ${approval.file}: it asks for nothing that needs trust now.
`,
        );
        io.out.write(
          `If it asks for anything else later, it is not applied until you trust it again (${globalConfigPath(home)}).\n`,
        );
      }),
    );
}

function list(io: CliIo, home: string, json: boolean): void {
  const approvals = approvedProjectConfigs(home);
  const folders = trustedFolders(home);
  if (json) {
    printJson(io, {
      file: globalConfigPath(home),
      trusted_project_configs: approvals,
      trusted_folders: folders,
    });
    return;
  }
  if (approvals.length === 0 && folders.length === 0) {
    io.out.write(`No trusted project files (${globalConfigPath(home)}).\n`);
    return;
  }
  for (const approval of approvals) {
    const count = Object.keys(approval.keys).length;
    io.out.write(
      `${approval.file}  (${count} ${count === 1 ? 'setting' : 'settings'}${approval.trusted_at ? `, trusted ${approval.trusted_at}` : ''})\n`,
    );
  }
  for (const folder of folders) {
    io.out.write(
      `${folder}  (old folder entry: trusts nothing now; approve each project file with keel trust ${shellWord(folder)})\n`,
    );
  }
}

/** `keel untrust [dir]`: withdraws the approval of a folder's project file. */
export function registerUntrust(program: Command, io: CliIo): void {
  program
    .command('untrust')
    .description(describe('untrust'))
    .argument('[dir]', 'the folder whose .runtime/config.json to stop trusting (default: current directory)')
    .action((dir: string | undefined) =>
      guarded(io, async () => {
        const home = readEnv(io.env).home;
        const { file, removed } = await untrustFolder(home, resolve(io.cwd, dir ?? '.'));
        io.out.write(removed ? `No longer trusted: ${file}\n` : `${file} was not trusted.\n`);
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
