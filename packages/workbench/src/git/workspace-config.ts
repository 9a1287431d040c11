import { runGit } from './run-git.ts';

/** What a workspace remembers about where it came from, in its own `.git/config` (section `workbench`). */
export interface WorkspaceOrigin {
  source: string;
  baseCommit: string;
  baseBranch: string;
}

export async function writeWorkspaceOrigin(dir: string, origin: WorkspaceOrigin): Promise<void> {
  await runGit(dir, ['config', '--local', 'workbench.source', origin.source]);
  await runGit(dir, ['config', '--local', 'workbench.baseCommit', origin.baseCommit]);
  await runGit(dir, ['config', '--local', 'workbench.baseBranch', origin.baseBranch]);
}

/** The recorded origin of a workspace, or null when `dir` is not one of ours. */
export async function readWorkspaceOrigin(dir: string): Promise<WorkspaceOrigin | null> {
  const { stdout, exitCode } = await runGit(dir, ['config', '--local', '--get-regexp', '^workbench\\.'], {
    okExitCodes: [0, 1],
  });
  if (exitCode !== 0) return null;
  const values = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0) values.set(line.slice(0, space).toLowerCase(), line.slice(space + 1));
  }
  const source = values.get('workbench.source');
  const baseCommit = values.get('workbench.basecommit');
  const baseBranch = values.get('workbench.basebranch');
  return source && baseCommit && baseBranch ? { source, baseCommit, baseBranch } : null;
}
