import type { Project } from './types.ts';

/** The part of `PUT /api/projects/{id}` that can choose what runs. */
export interface ProjectProgramPatch {
  trust_repository_config?: boolean | undefined;
  checks?: Record<string, { command: string }[]> | undefined;
}

/**
 * The fields of a project update that choose a program the workbench runs, by path: a check command its
 * repository does not have yet (`checks.api.0.command`), and turning on `trust_repository_config` (which lets
 * the repositories' own config choose commands and the sandbox). Removing a check or trust runs nothing.
 */
export function projectProgramChanges(project: Project, patch: ProjectProgramPatch): string[] {
  const changed: string[] = [];
  if (patch.trust_repository_config === true && !project.trust_repository_config) {
    changed.push('trust_repository_config');
  }
  for (const [name, checks] of Object.entries(patch.checks ?? {})) {
    const repository = project.repositories.find((entry) => entry.name === name);
    const known = new Set((repository?.checks ?? []).map((check) => check.command));
    checks.forEach((check, index) => {
      if (!known.has(check.command)) changed.push(`checks.${name}.${index}.command`);
    });
  }
  return changed;
}
