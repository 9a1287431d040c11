import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { DirectoryListing } from '@keel/protocol/workbench';
import { DirectoryListingError, listDirectory as list } from '@keel/service';
import { WorkbenchError } from '../errors.ts';

/**
 * One directory of the machine the workbench runs on, for picking repositories in the browser (the
 * services' one listing, with `.git` marked), in pages; the default is the user's home directory. A
 * failure is worded in the workbench's codes.
 */
export async function listDirectory(
  path = homedir(),
  options: { hidden?: boolean; offset?: number } = {},
): Promise<DirectoryListing> {
  const absolute = resolve(path);
  try {
    return (await list(absolute, { ...options, gitRepos: true })) as DirectoryListing;
  } catch (error) {
    if (!(error instanceof DirectoryListingError)) throw error;
    throw new WorkbenchError(codes[error.reason], messages[error.reason](error), { path: absolute });
  }
}

const codes = {
  missing: 'DIRECTORY_NOT_FOUND',
  not_a_directory: 'NOT_A_DIRECTORY',
  forbidden: 'PERMISSION_DENIED',
  failed: 'DIRECTORY_ERROR',
} as const;

const messages: Record<keyof typeof codes, (error: DirectoryListingError) => string> = {
  missing: (error) => `No directory at ${error.path}.`,
  not_a_directory: (error) => `${error.path} is a file, not a directory.`,
  forbidden: (error) => `The workbench may not read ${error.path}.`,
  failed: (error) => error.message,
};
