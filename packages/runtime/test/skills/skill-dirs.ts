import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Writes `<root>/<folder>/SKILL.md` with the given text; returns the file's path. */
export async function writeSkillFile(root: string, folder: string, text: string): Promise<string> {
  await mkdir(join(root, folder), { recursive: true });
  const file = join(root, folder, 'SKILL.md');
  await writeFile(file, text);
  return file;
}

/** Writes a valid skill: front matter with `name` and `description`, then `body`. */
export function writeSkill(root: string, name: string, description: string, body = `How to ${name}.`) {
  return writeSkillFile(root, name, `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`);
}

/** A runtime home and a project directory, each a fresh temp dir, removed on dispose. */
export async function skillPlaces() {
  const runtimeDir = await mkdtemp(join(tmpdir(), 'keel-skills-home-'));
  const workdir = await mkdtemp(join(tmpdir(), 'keel-skills-project-'));
  return {
    runtimeDir,
    workdir,
    userSkills: join(runtimeDir, 'skills'),
    projectSkills: join(workdir, '.runtime', 'skills'),
    async config(where: 'global' | 'project', config: Record<string, unknown>) {
      const dir = where === 'global' ? runtimeDir : join(workdir, '.runtime');
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'config.json'), JSON.stringify(config));
    },
    async [Symbol.asyncDispose]() {
      await rm(runtimeDir, { recursive: true, force: true });
      await rm(workdir, { recursive: true, force: true });
    },
  };
}
