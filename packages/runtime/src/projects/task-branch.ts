import { tmpdir } from 'node:os';
import { InvalidStateError } from '../errors/index.ts';
import { git, gitFailure } from './git.ts';
import { invalidFields } from './project-input.ts';

/**
 * Refuses what `git check-ref-format --branch` refuses (spaces, `..`, `~`, a trailing `.lock`, …), a
 * leading `-` (git would read an option) and shorthands git would expand (`@{-1}`): the name is used as
 * given. Checked outside any repository, so nothing is looked up.
 */
export async function checkBranchName(branch: string): Promise<void> {
  const refused = () =>
    invalidFields([{ field: 'branch_name', message: `'${branch}' is not a valid git branch name` }]);
  if (branch.startsWith('-')) throw refused();
  const checked = await git(tmpdir(), ['check-ref-format', '--branch', branch]);
  if (checked.code !== 0 || checked.stdout.trim() !== branch) throw refused();
}

/** The top directory of the git repository holding `workdir`; INVALID_STATE when there is none. */
export async function repositoryRoot(workdir: string): Promise<string> {
  const found = await git(workdir, ['rev-parse', '--show-toplevel']);
  if (found.code !== 0) {
    throw new InvalidStateError(
      `The project directory ${workdir} is not in a git repository: run \`git init\` there to give it tasks.`,
      { workdir },
    );
  }
  return found.stdout.trim();
}

// One branch change at a time per repository in this process: two tasks created at once must not race.
const locks = new Map<string, Promise<unknown>>();

function serialised<T>(root: string, work: () => Promise<T>): Promise<T> {
  const previous = locks.get(root) ?? Promise.resolve();
  const next = previous.then(work, work);
  const settled = next.catch(() => undefined);
  locks.set(root, settled);
  void settled.then(() => {
    if (locks.get(root) === settled) locks.delete(root);
  });
  return next;
}

export interface CheckoutOutcome {
  /** The branch was made now, from the commit checked out before. */
  created: boolean;
  /** The branch checked out before, or null when HEAD was detached. */
  previous: string | null;
}

/**
 * Makes `branch` the checked-out branch of the repository at `root`, creating it from the current commit
 * when it does not exist. A switch needs a clean tree: uncommitted changes to tracked files (staged or not)
 * are refused with INVALID_STATE and nothing changes, rather than carried into (or clashing with) another
 * task's branch. Untracked files stay where they are; git itself refuses a switch that would overwrite one.
 */
export function checkoutBranch(root: string, branch: string): Promise<CheckoutOutcome> {
  return serialised(root, async () => {
    const head = await git(root, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
    const previous = head.code === 0 ? head.stdout.trim() : null;
    if (previous === branch) return { created: false, previous };
    const status = await git(root, ['status', '--porcelain=v1', '-z', '--untracked-files=no']);
    if (status.code !== 0) throw gitFailure(`Could not read the state of ${root}`, status);
    const changed = changedPaths(status.stdout);
    if (changed.length > 0) {
      const shown = changed.slice(0, 5).join(', ') + (changed.length > 5 ? ', …' : '');
      throw new InvalidStateError(
        `${root} has uncommitted changes (${shown}): commit or stash them before switching to '${branch}'.`,
        { repository: root, branch, current_branch: previous, changed_files: changed.slice(0, 100) },
      );
    }
    const exists = await git(root, ['show-ref', '--verify', '--quiet', `refs/heads/${branch}`]);
    const created = exists.code !== 0;
    const switched = await git(root, created ? ['switch', '-c', branch] : ['switch', '--no-guess', branch]);
    if (switched.code !== 0) {
      throw gitFailure(`Could not switch ${root} to '${branch}'`, switched, { repository: root, branch });
    }
    return { created, previous };
  });
}

/** Paths in `git status --porcelain=v1 -z` output (`XY path`; a rename or copy is followed by its source). */
function changedPaths(output: string): string[] {
  const entries = output.split('\0').filter(Boolean);
  const paths: string[] = [];
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index]!;
    paths.push(entry.slice(3));
    if (entry[0] === 'R' || entry[0] === 'C') index++;
  }
  return paths;
}
