import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InvalidParamsError } from '../errors/index.ts';

/** The normalised working directory every surface agrees on: absolute, symlinks resolved. */
export async function normaliseWorkdir(
  workdir: string | undefined,
  cwd: string = process.cwd(),
): Promise<string> {
  const absolute = resolve(cwd, workdir ?? '.');
  let real: string;
  try {
    real = await realpath(absolute);
  } catch {
    throw new InvalidParamsError(`workdir does not exist: ${absolute}`, { workdir: absolute });
  }
  if (!(await stat(real)).isDirectory()) {
    throw new InvalidParamsError(`workdir is not a directory: ${absolute}`, { workdir: absolute });
  }
  return real;
}
