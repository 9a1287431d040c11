import { mkdir, realpath, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { projectConfigPath } from '../config/index.ts';
import { PermissionDeniedError } from '../errors/index.ts';
import { memoryDir } from '../memory/index.ts';
import { invalidFields } from './project-input.ts';

/**
 * `path` (relative ones from `base`) as the normalised directory every surface agrees on: absolute, with
 * symlinks resolved. A path that is missing or not a directory is an invalid `field`.
 */
export async function existingDirectory(field: string, path: string, base: string): Promise<string> {
  const absolute = resolve(base, path);
  let real: string;
  try {
    real = await realpath(absolute);
  } catch {
    throw invalidFields([{ field, message: `${absolute} does not exist` }]);
  }
  if (!(await stat(real)).isDirectory()) {
    throw invalidFields([{ field, message: `${absolute} is not a directory` }]);
  }
  return real;
}

/** Each of `paths` (relative ones from `workdir`) as an existing directory, duplicates dropped. */
export async function existingDirectories(paths: readonly string[], workdir: string): Promise<string[]> {
  const found: string[] = [];
  for (const [index, path] of paths.entries()) {
    const dir = await existingDirectory(`code_paths.${index}`, path, workdir);
    if (!found.includes(dir)) found.push(dir);
  }
  return found;
}

/**
 * Gives a project its runtime directories: `.runtime/` in the project directory, with an empty
 * `config.json` when it has none (an existing one is never touched), and its memory directory under the
 * user's runtime directory.
 */
export async function initialiseRuntimeDirectory(workdir: string, runtimeDir: string): Promise<void> {
  const config = projectConfigPath(workdir);
  try {
    await mkdir(join(workdir, '.runtime'), { recursive: true });
    // `wx`: created only if missing, so a file written meanwhile by someone else is kept.
    await writeFile(config, '{}\n', { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    await mkdir(memoryDir(runtimeDir, workdir), { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
      throw new PermissionDeniedError(
        `Cannot create the project's runtime directory: ${(error as Error).message}`,
        {
          workdir,
        },
      );
    }
    throw error;
  }
}
