import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InvalidParamsError, type Workflow } from '@keel/runtime';
import { parseWorkflow } from '@keel/runtime/internal';

/** Reads and validates a workflow JSON file; a missing, unreadable or invalid file is INVALID_PARAMS. */
export async function loadWorkflow(path: string, cwd: string): Promise<Workflow> {
  const absolute = resolve(cwd, path);
  let text: string;
  try {
    text = await readFile(absolute, 'utf8');
  } catch (error) {
    throw new InvalidParamsError(
      `Cannot read workflow file ${path}: ${(error as NodeJS.ErrnoException).code ?? error}`,
      { path: absolute },
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new InvalidParamsError(`Workflow file ${path} is not valid JSON: ${(error as Error).message}`, {
      path: absolute,
    });
  }
  return parseWorkflow(data);
}
