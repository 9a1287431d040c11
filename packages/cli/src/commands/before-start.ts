import { unconfinedCommandsNote } from '@keel/runtime';
import { readEnv } from '@keel/runtime/internal';
import type { CliIo } from '../io.ts';
import { confirmProjectTrust } from './project-trust.ts';

/**
 * What `keel run`, `keel chat` and `keel tui` settle before they start in `workdir`: whether the project
 * file's security-relevant keys may apply (asked once), then a note when no sandbox confines commands.
 */
export async function beforeStart(io: CliIo, workdir: string): Promise<void> {
  await confirmProjectTrust(io, workdir);
  const note = unconfinedCommandsNote(readEnv(io.env).home, workdir);
  if (note) io.err.write(`Note: ${note}\n`);
}
