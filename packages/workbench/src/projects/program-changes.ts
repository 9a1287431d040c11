import type { Project } from './types.ts';

/** The part of `PUT /api/projects/{id}` that can choose what runs. */
export interface ProjectProgramPatch {
  trust_repository_config?: boolean | undefined;
  checks?: Record<string, { command: string }[]> | undefined;
  setup?: Record<string, { command: string } | null> | undefined;
  run_setup?: boolean | undefined;
  preview?: Record<string, { command: string } | null> | undefined;
}

/**
 * The fields of a project update that choose a program the workbench runs, by path: a check command its
 * repository does not have yet (`checks.api.0.command`), a setup command other than its own
 * (`setup.api.command`), a preview command other than its own (`preview.api.command`), turning on
 * `trust_repository_config` (which lets the repositories' own config choose commands and the sandbox) and
 * turning on `run_setup` (which runs the repositories' install scripts with the network on). Removing a check, a setup, a preview, trust or run_setup runs nothing.
 */
export function projectProgramChanges(project: Project, patch: ProjectProgramPatch): string[] {
  const changed: string[] = [];
  if (patch.trust_repository_config === true && !project.trust_repository_config) {
    changed.push('trust_repository_config');
  }
  if (patch.run_setup === true && !project.run_setup) changed.push('run_setup');
  for (const [name, setup] of Object.entries(patch.setup ?? {})) {
    const repository = project.repositories.find((entry) => entry.name === name);
    if (setup !== null && setup.command !== repository?.setup?.command) changed.push(`setup.${name}.command`);
  }
  // A preview command runs the repository's app with the network on, when a user starts it from a task.
  for (const [name, preview] of Object.entries(patch.preview ?? {})) {
    const repository = project.repositories.find((entry) => entry.name === name);
    if (preview !== null && preview.command !== repository?.preview?.command) {
      changed.push(`preview.${name}.command`);
    }
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
