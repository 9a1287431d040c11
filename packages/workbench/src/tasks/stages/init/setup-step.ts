import { readNoFollow, writeNoFollow } from '../../../files/index.ts';
import { untrackedEntries } from '../../../git/index.ts';
import { type DependencyReuse, reuseInstalledDependencies } from '../../../setup/index.ts';
import type { TaskDeps } from '../../deps.ts';

/** How a step ended, when it says more than a sentence: the output of the command it ran. */
export interface StepOutcome {
  detail: string;
  output?: string;
}

/** A step that ran a command which failed: its message, and the command's output. */
export class StepFailure extends Error {
  readonly output: string;
  constructor(message: string, output: string) {
    super(message);
    this.output = output;
  }
}

/** How much of a setup's output the step keeps: its start (npm ci says why it refuses, then its usage) and end. */
const keptHead = 1500;
const keptTail = 2500;
/** How often a running setup looks whether its task is being deleted (then it is stopped). */
const closingPollMs = 250;

/** The start and end of a command's output, what lies between cut out and counted. */
export function outputExcerpt(output: string): string {
  if (output.length <= keptHead + keptTail) return output;
  const cut = output.length - keptHead - keptTail;
  return `${output.slice(0, keptHead)}\n… (${cut} characters cut: the whole output is in the init session) …\n${output.slice(-keptTail)}`;
}

/** The step's words for the folders a reuse copied: the first three, then how many more. */
function copiedFolders(folders: string[]): string {
  const shown = folders.slice(0, 3).join(', ');
  return folders.length > 3 ? `${shown} and ${folders.length - 3} more node_modules` : shown;
}

/**
 * The step `setup:<repository>`: runs the repository's setup command in its workspace when the project's
 * `run_setup` is on (read at each try, so a retry takes an edited command), else says why not and how to
 * turn it on. When the command is the repository's own JavaScript install and the source repository has
 * that install already (`reuseInstalledDependencies`), its node_modules is copied instead and the command
 * does not run. What it installed or copied that git does not ignore (`node_modules/` in a repository
 * without a .gitignore) goes to the workspace's .git/info/exclude: it is not part of any todo's change.
 */
export async function runSetupStep(deps: TaskDeps, taskId: string, repository: string): Promise<StepOutcome> {
  const task = await deps.store.get(taskId);
  const project = await deps.projects.get(task.project_id);
  const source = project.repositories.find((entry) => entry.name === repository);
  const setup = source?.setup;
  if (!source || !setup) return { detail: 'nothing to install: the repository has no setup command' };
  if (!project.run_setup) {
    return {
      detail:
        `not run: setup is off for this project, so \`${setup.command}\` did not run and the workspace has ` +
        `no installed dependencies. To run it in new tasks, turn it on in the project's settings (PUT ` +
        `/api/projects/${project.id} {"run_setup": true}): the repository's install scripts then run in ` +
        `the sandbox with the network on, as if you ran the install by hand.`,
    };
  }
  const workspace = task.workspaces.find((entry) => entry.repository === repository);
  if (!workspace) throw new Error(`'${repository}' has no workspace yet: its clone step must succeed first`);
  const before = new Set(await untrackedEntries(workspace.dir));
  const stop = new AbortController();
  // A delete of the task stops the copy or the install rather than waiting up to its time limit.
  const poll = setInterval(() => {
    if (deps.busy.closing(taskId)) stop.abort();
  }, closingPollMs);
  let started = performance.now();
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
  let reuse: DependencyReuse;
  let result: { exitCode: number | null; output: string };
  try {
    reuse = await reuseInstalledDependencies({
      source: source.path,
      workspace: workspace.dir,
      command: setup.command,
      signal: stop.signal,
    });
    if (stop.signal.aborted) throw new Error('setup stopped: the task is being deleted');
    if (reuse.reused) {
      await excludeFromGit(workspace.dir, await installedSince(workspace.dir, before));
      return {
        detail:
          `reused ${copiedFolders(reuse.folders)} from the source repository (lockfile unchanged), ` +
          `${seconds()} s; \`${setup.command}\` did not run`,
        output: `copied from ${source.path} (${reuse.method}: a copy, copy-on-write where the file system offers it): ${reuse.folders.join(', ')}\n`,
      };
    }
    started = performance.now();
    result = await deps.setup.run(workspace.dir, setup.command, setup.timeout_ms, stop.signal);
  } finally {
    clearInterval(poll);
  }
  if (result.exitCode !== 0) {
    const how = result.exitCode === null ? 'did not finish' : `exit code ${result.exitCode}`;
    throw new StepFailure(
      `setup \`${setup.command}\` failed (${how}) after ${seconds()} s: fix the repository or the project's ` +
        `setup command, then retry with POST /api/tasks/${taskId}/init (its output is on the step).`,
      result.output,
    );
  }
  await excludeFromGit(workspace.dir, await installedSince(workspace.dir, before));
  const notReused =
    reuse.why === undefined ? '' : ` (the source's node_modules was not reused: ${reuse.why})`;
  return { detail: `\`${setup.command}\` succeeded in ${seconds()} s${notReused}`, output: result.output };
}

/** The untracked entries of `dir` that were not there `before`: what the setup added. */
async function installedSince(dir: string, before: Set<string>): Promise<string[]> {
  return (await untrackedEntries(dir)).filter((entry) => !before.has(entry));
}

/** Adds `entries` (relative to `dir`) to its .git/info/exclude, anchored at the root. */
async function excludeFromGit(dir: string, entries: string[]): Promise<void> {
  if (entries.length === 0) return;
  const file = '.git/info/exclude';
  const read = await readNoFollow(dir, file, { maxBytes: 1024 * 1024 });
  const current = read.why === undefined ? read.text : '';
  const lines = entries.map((entry) => `/${entry.replace(/([*?[\\#!])/g, '\\$1')}`);
  const separator = current === '' || current.endsWith('\n') ? '' : '\n';
  const why = "# Installed by the workbench's setup step: not part of the task's change.\n";
  const refused = writeNoFollow(dir, file, `${current}${separator}${why}${lines.join('\n')}\n`);
  if (refused)
    throw new Error(`${file} of ${dir} was not written (${refused.why}): the install would show in the diff`);
}
