import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { offLoop } from '../../../off-loop/index.ts';
import { writeTaskFile } from '../../task-files.ts';

// The init steps that copy files into the task directory run in the workbench's worker thread: a linked
// skill can be a large folder, and a write waits on a disk the workspace's checkout keeps busy (issue #44).

/**
 * The step `skills`: the linked skills copied into `<taskDir>/.skills`, in a new folder renamed into place.
 * A `.skills` that is a link is removed (rm does not follow it), and a link planted again meanwhile makes
 * the rename fail instead of being written through.
 */
export const copySkills: (taskDir: string, linked: { name: string; dir: string }[]) => Promise<void> =
  offLoop(import.meta.url, 'copySkillsHere', copySkillsHere);

/** `copySkills` on the calling thread (the worker's). */
export async function copySkillsHere(
  taskDir: string,
  linked: { name: string; dir: string }[],
): Promise<void> {
  const target = join(taskDir, '.skills');
  const staging = join(taskDir, `.skills.${randomUUID().slice(0, 8)}.tmp`);
  try {
    mkdirSync(staging);
    for (const skill of linked) cpSync(skill.dir, join(staging, skill.name), { recursive: true });
    rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** The step `knowledge`: the project's project.md and constitution.md copied into the task directory. */
export const copyKnowledge: (taskDir: string, projectMd: string, constitutionMd: string) => Promise<void> =
  offLoop(import.meta.url, 'copyKnowledgeHere', copyKnowledgeHere);

/** `copyKnowledge` on the calling thread (the worker's). */
export async function copyKnowledgeHere(
  taskDir: string,
  projectMd: string,
  constitutionMd: string,
): Promise<void> {
  for (const path of [projectMd, constitutionMd]) {
    if (!existsSync(path)) throw new Error(`${path} is missing: generate the project's knowledge again`);
  }
  writeTaskFile(taskDir, join(taskDir, 'project.md'), readFileSync(projectMd));
  writeTaskFile(taskDir, join(taskDir, 'constitution.md'), readFileSync(constitutionMd));
}
