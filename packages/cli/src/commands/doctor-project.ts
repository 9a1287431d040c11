import { existsSync, statSync } from 'node:fs';
import type { loadConfigReport } from '@keel/runtime';
import { spawnGit } from '@keel/runtime/internal';
import { type DoctorCheck, fail, ok, warn } from './doctor-check.ts';
import { firstLine } from './doctor-system.ts';
import { shellWord } from './project-trust.ts';

type ConfigReport = ReturnType<typeof loadConfigReport>;

/** The folder runs work in: that it exists, and whether it is a git repository. */
export async function workdirCheck(workdir: string): Promise<DoctorCheck> {
  if (!existsSync(workdir) || !statSync(workdir).isDirectory()) {
    return fail(
      'workdir',
      `${workdir} is not a folder.`,
      'Run keel doctor in your project, or name it with --workdir <dir>.',
    );
  }
  const run = await spawnGit(workdir, ['rev-parse', '--show-toplevel'], { timeoutMs: 5000 });
  const top = run.stdout.toString('utf8').trim();
  if (run.code === 0 && top) return ok('workdir', `${workdir}: in the git repository ${top}`);
  const why = run.spawnError ? 'git could not be run' : firstLine(run.stderr) || 'git rev-parse failed';
  return warn(
    'workdir',
    `${workdir} is not in a git repository (${why}): Keel works there, but you cannot review or undo its changes with git.`,
    'Run git init there (or work in a clone).',
  );
}

/**
 * The project's `.runtime/config.json`: none, applied in full (nothing in it needs trust, or it is trusted
 * as it is now), or partly ignored until `keel trust` approves it; a broken file or global file fails.
 */
export function projectConfigCheck(report: ConfigReport | Error): DoctorCheck {
  if (report instanceof Error) {
    return fail(
      'project-config',
      report.message,
      'Fix the file it names (valid JSON with known settings; keel config set rewrites one setting safely).',
    );
  }
  if (!existsSync(report.projectFile)) {
    return ok('project-config', 'no project configuration (.runtime/config.json): the global settings apply');
  }
  const asks = report.ignored.filter((entry) => entry.kind !== 'trust-list');
  if (asks.length === 0) {
    const how = report.trusted ? 'trusted as it is now' : 'it asks for nothing that needs trust';
    return ok('project-config', `${report.projectFile} applies (${how})`);
  }
  const keys = asks.map((entry) => entry.key).join(', ');
  return warn(
    'project-config',
    `${report.projectFile} is not trusted as it is now: ${keys} ${asks.length === 1 ? 'is' : 'are'} ignored.`,
    `Check what it asks for (keel config show), then apply it with: keel trust ${shellWord(report.projectDir)}`,
  );
}
