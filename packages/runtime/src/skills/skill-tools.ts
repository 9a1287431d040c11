import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { ToolError } from '../errors/index.ts';
import { createPathGuard, defineTool, type Tool, ToolRegistry } from '../tools/index.ts';
import { readDocumentation } from './catalog.ts';
import type { FoundSkill } from './discover.ts';

// Bundled files are references and scripts the documentation points to; a skill folder is not a repository.
const maxListedFiles = 50;
const maxFileBytes = 256 * 1024;

const listSkillsSchema = z.strictObject({});
const readSkillSchema = z.strictObject({
  name: z.string().min(1).describe('the skill, as list_skills names it'),
  file: z
    .string()
    .min(1)
    .optional()
    .describe(
      'a file bundled with the skill (e.g. references/checklist.md) to read instead of its instructions',
    ),
});

/**
 * `list_skills()` and `read_skill(name, file?)` over the skills enabled for one run. A skill that is not
 * among them (disabled, narrowed away by the request, or unknown) is a tool error the model can read.
 */
export function createSkillTools(skills: readonly FoundSkill[]): Tool[] {
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  const enabledNames = () => [...byName.keys()].join(', ') || 'none';
  const listSkills = defineTool({
    name: 'list_skills',
    traits: { kind: 'read', readOnly: true },
    description:
      'List the skills enabled for this run: each name and when to use it. Read one with read_skill.',
    schema: listSkillsSchema,
    execute: async () => skills.map((skill) => `- ${skill.name}: ${skill.description}`).join('\n'),
  });
  const readSkill = defineTool({
    name: 'read_skill',
    traits: { kind: 'read', readOnly: true },
    description:
      "Read a skill's instructions (its SKILL.md) before doing a task it covers; with `file`, read one of " +
      'the files bundled with it.',
    schema: readSkillSchema,
    execute: async (_ctx, { name, file }) => {
      const skill = byName.get(name);
      if (skill === undefined) {
        throw new ToolError(
          `Skill '${name}' is not enabled for this run or does not exist. Enabled skills: ${enabledNames()}.`,
          { skill: name },
        );
      }
      return file === undefined ? instructions(skill) : bundledFile(skill, file);
    },
  });
  return [listSkills, readSkill];
}

async function instructions(skill: FoundSkill): Promise<string> {
  const documentation = await readDocumentation(skill).catch((error: unknown) => {
    throw new ToolError((error as Error).message, { skill: skill.name });
  });
  const files = await bundledFiles(skill.dir);
  const listing = files.length
    ? `\n\nFiles bundled with this skill (read one with read_skill and file): ${files.join(', ')}`
    : '';
  return `# Skill: ${skill.name}\n\n${documentation}${listing}`;
}

async function bundledFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .filter((path) => path !== 'SKILL.md' && !path.split(/[\\/]/).some((part) => part.startsWith('.')))
    .sort()
    .slice(0, maxListedFiles);
}

/** A file of the skill's folder, confined to it as tools are to the workdir (no `..`, no symlink escape). */
async function bundledFile(skill: FoundSkill, file: string): Promise<string> {
  const guard = await createPathGuard({ workdir: skill.dir });
  const path = await guard.resolve(file, 'read');
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) {
    throw new ToolError(`Skill '${skill.name}' has no file '${file}'.`, { skill: skill.name, file });
  }
  if (info.size > maxFileBytes) {
    throw new ToolError(`'${file}' of skill '${skill.name}' is larger than ${maxFileBytes / 1024} KB.`, {
      skill: skill.name,
      file,
    });
  }
  const text = await readFile(path, 'utf8');
  if (text.includes('\0')) {
    throw new ToolError(`'${file}' of skill '${skill.name}' is a binary file.`, { skill: skill.name, file });
  }
  return text;
}

/** `tools` plus the meta tools when any skill is enabled; a tool of the same name in `tools` is kept. */
export function withSkillTools(tools: ToolRegistry, skills: readonly FoundSkill[]): ToolRegistry {
  if (skills.length === 0) return tools;
  const added = createSkillTools(skills).filter((tool) => !tools.has(tool.name));
  return new ToolRegistry([...tools.list(), ...added]);
}
