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

/**
 * Writes the starter project configuration (`keel init`, and `/init` in an editor): the path written, or
 * undefined when one exists already and `force` is not set.
 */
export async function createProjectConfig(workdir: string, force = false): Promise<string | undefined> {
  const path = projectConfigPath(workdir);
  if (existsSync(path) && !force) return undefined;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(starter, null, 2)}\n`);
  return path;
}

/** What the new configuration is for, after its path. */
export const projectConfigIntro =
  'It overrides the global configuration for this project: the model, store, approvals, limits.\n' +
  'Change it with `keel config set <key> <value> --project`; it is meant to be committed.\n';

/** `keel init`: gives a project its own `.runtime/config.json`, which every surface on it reads. */
export function registerInit(program: Command, io: CliIo): void {
  workdirOption(program.command('init'))
    .description(describe('init'))
    .option('--force', 'overwrite an existing project configuration')
    .action(async (flags: InitFlags) => {
      const workdir = workdirOf(io, flags);
      const path = await createProjectConfig(workdir, flags.force);
      if (!path) {
        io.err.write(
          `Error [INVALID_STATE]: ${projectConfigPath(workdir)} exists already (--force to overwrite it).\n`,
        );
        io.exitCode = 1;
        return;
      }
      io.out.write(`Created ${path}\n${projectConfigIntro}`);
    });
}
