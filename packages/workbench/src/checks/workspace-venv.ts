import { join } from 'node:path';
import { entryKind } from '../files/index.ts';

/**
 * The workspace's `.venv` (made by setup), activated for the commands run there (checks, previews): its
 * `python3`, `pytest`… come first on PATH, so they see the dependencies setup installed. Nothing when the
 * workspace has none (or it is a link: setup makes a real folder).
 */
export async function activatedVenv(dir: string, path: string | undefined): Promise<Record<string, string>> {
  if ((await entryKind(dir, '.venv/bin').catch(() => 'missing')) !== 'folder') return {};
  const bin = join(dir, '.venv', 'bin');
  return { VIRTUAL_ENV: join(dir, '.venv'), PATH: path ? `${bin}:${path}` : bin };
}
