import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SkillSource } from './skill.ts';

/** The skills shipped with the runtime, one folder each. */
export const builtinSkillsDir = fileURLToPath(new URL('./builtin/', import.meta.url));

/** One directory skills are searched in. */
export interface SkillSearchDir {
  dir: string;
  source: SkillSource;
  /** The setting that named it; a named directory that is missing is worth a warning, a default one is not. */
  setting?: 'skills.custom_dirs' | 'RUNTIME_SKILL_DIRS';
}

export interface SkillSearchInput {
  runtimeDir: string;
  workdir: string;
  /** Configuration `skills.custom_dirs`. */
  customDirs?: readonly string[] | undefined;
  /** Environment `RUNTIME_SKILL_DIRS`. */
  envDirs?: readonly string[] | undefined;
}

/**
 * Where skills come from, lowest priority first: built in, the user's `<RUNTIME_HOME>/skills`, the project's
 * `<workdir>/.runtime/skills`, then `skills.custom_dirs` and `RUNTIME_SKILL_DIRS` (relative ones against
 * the workdir, `~/` against the home directory). A later directory overrides an earlier one by name.
 */
export function skillSearchDirs(input: SkillSearchInput): SkillSearchDir[] {
  const custom = (setting: 'skills.custom_dirs' | 'RUNTIME_SKILL_DIRS') => (dir: string) => ({
    dir: resolveDir(input.workdir, dir),
    source: 'custom' as const,
    setting,
  });
  return [
    { dir: builtinSkillsDir, source: 'builtin' },
    { dir: join(input.runtimeDir, 'skills'), source: 'global' },
    { dir: join(input.workdir, '.runtime', 'skills'), source: 'project' },
    ...(input.customDirs ?? []).map(custom('skills.custom_dirs')),
    ...(input.envDirs ?? []).map(custom('RUNTIME_SKILL_DIRS')),
  ];
}

function resolveDir(workdir: string, dir: string): string {
  if (dir === '~' || dir.startsWith('~/')) return join(homedir(), dir.slice(1));
  return resolve(workdir, dir);
}
