import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { projectConfigPath } from '@keel/runtime/internal';
import type { Command } from 'commander';
import { type WorkdirFlags, workdirOf, workdirOption } from '../cli-runtime.ts';
import type { CliIo } from '../io.ts';
import { describe } from './descriptions.ts';

interface InitFlags extends WorkdirFlags {
  force?: boolean;
}

/** What a new project configuration holds: the settings people change first, at their defaults. */
const starter = {
  security: { require_approval: [] as string[] },
  circuit_breaker: { max_cost_usd: 5, max_tokens: 200000 },
};

/** `keel init`: gives a project its own `.runtime/config.json`, which every surface on it reads. */
export function registerInit(program: Command, io: CliIo): void {
  workdirOption(program.command('init'))
    .description(describe('init'))
    .option('--force', 'overwrite an existing project configuration')
    .action(async (flags: InitFlags) => {
      const path = projectConfigPath(workdirOf(io, flags));
      if (existsSync(path) && !flags.force) {
        io.err.write(`Error [INVALID_STATE]: ${path} exists already (--force to overwrite it).\n`);
        io.exitCode = 1;
        return;
      }
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, `${JSON.stringify(starter, null, 2)}\n`);
      io.out.write(
        `Created ${path}\n` +
          'It overrides the global configuration for this project: the model, store, approvals, limits.\n' +
          'Change it with `keel config set <key> <value> --project`; it is meant to be committed.\n',
      );
    });
}
