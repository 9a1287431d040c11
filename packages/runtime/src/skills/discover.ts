import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { SkillSearchDir } from './search-dirs.ts';
import type { SkillSource, SkillWarning } from './skill.ts';
import { readSkillFile } from './skill-file.ts';

/** A skill found on disk: its front matter only; the body is read when someone asks for it. */
export interface FoundSkill {
  name: string;
  description: string;
  source: SkillSource;
  /** The skill's directory. */
  dir: string;
  /** Its SKILL.md. */
  file: string;
}

export interface Discovery {
  /** By name, each the highest-priority skill of that name. */
  skills: Map<string, FoundSkill>;
  warnings: SkillWarning[];
}

/**
 * Finds the skills in `dirs` (lowest priority first): every sub-directory holding a SKILL.md. A SKILL.md
 * that is not a valid skill is skipped with a warning; nothing here throws.
 */
export async function discoverSkills(dirs: readonly SkillSearchDir[]): Promise<Discovery> {
  // Every directory and skill is read at once (each run starts with this); results keep their order.
  const perDir = await Promise.all(dirs.map((searchDir) => skillsIn(searchDir)));
  const skills = new Map<string, FoundSkill>();
  const warnings: SkillWarning[] = [];
  for (const { found, warnings: dirWarnings } of perDir) {
    for (const each of found) skills.set(each.name, each);
    warnings.push(...dirWarnings);
  }
  return { skills, warnings };
}

async function skillsIn(
  searchDir: SkillSearchDir,
): Promise<{ found: FoundSkill[]; warnings: SkillWarning[] }> {
  const warnings: SkillWarning[] = [];
  const { dir, source, setting } = searchDir;
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => !name.startsWith('.')).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !setting) return { found: [], warnings };
    const namedIn = setting ? ` (named in ${setting})` : '';
    const problem =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'ENOTDIR'
          ? 'is not a directory'
          : `cannot be read: ${(error as Error).message}`;
    warnings.push({ path: dir, message: `This skill directory${namedIn} ${problem}.` });
    return { found: [], warnings };
  }
  const results = await Promise.all(
    names.map(async (name) => {
      const skillDir = join(dir, name);
      const file = join(skillDir, 'SKILL.md');
      // Folders without a SKILL.md are not skills (assets, notes); stat follows symlinked skill folders.
      if (!(await stat(file).catch(() => null))?.isFile()) return undefined;
      return { skillDir, file, result: await readSkillFile(file) };
    }),
  );
  const found: FoundSkill[] = [];
  for (const each of results) {
    if (each === undefined) continue;
    const { skillDir, file, result } = each;
    if (!result.ok) {
      warnings.push({ path: file, message: `Skipped: ${result.problem}.` });
      continue;
    }
    const { name: skillName, description } = result.manifest;
    found.push({ name: skillName, description, source, dir: skillDir, file });
  }
  return { found, warnings };
}
