import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { parseFrontMatter } from './front-matter.ts';

/** What a valid SKILL.md declares. */
export interface SkillManifest {
  name: string;
  description: string;
  /** The body after the front matter: the skill's documentation. */
  body: string;
}

export type SkillFileResult = { ok: true; manifest: SkillManifest } | { ok: false; problem: string };

export const maxNameLength = 64;
export const maxDescriptionLength = 1024;
/** The spec's rule (section 2): lowercase letters and hyphens only. */
export const skillNamePattern = /^[a-z-]+$/;

/** Why `name` cannot be a skill's name, or null when it can. */
export function skillNameProblem(name: string): string | null {
  if (name.length === 0) return 'name is empty';
  if (name.length > maxNameLength) return `name is longer than ${maxNameLength} characters`;
  if (!skillNamePattern.test(name)) {
    return `name '${name}' must be lowercase letters and hyphens only (e.g. package-managers)`;
  }
  return null;
}

/** Reads and checks a SKILL.md; the skill's directory must be named like the skill. */
export async function readSkillFile(path: string): Promise<SkillFileResult> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return { ok: false, problem: `it cannot be read (${(error as Error).message})` };
  }
  return checkSkillText(text, basename(dirname(path)));
}

/** Checks the text of a SKILL.md found in a directory called `directoryName`. */
export async function checkSkillText(text: string, directoryName: string): Promise<SkillFileResult> {
  const parsed = await parseFrontMatter(text);
  if (!parsed.ok) return parsed;
  const { name, description } = parsed.data;
  if (typeof name !== 'string' || !name.trim()) {
    return { ok: false, problem: 'its front matter has no name' };
  }
  const nameProblem = skillNameProblem(name);
  if (nameProblem) return { ok: false, problem: nameProblem };
  if (name !== directoryName) {
    return { ok: false, problem: `name '${name}' differs from its directory name '${directoryName}'` };
  }
  if (typeof description !== 'string' || !description.trim()) {
    return { ok: false, problem: 'its front matter has no description' };
  }
  if (description.length > maxDescriptionLength) {
    return { ok: false, problem: `description is longer than ${maxDescriptionLength} characters` };
  }
  // Folded to one line: listings and the system prompt show one line per skill.
  const oneLine = description.replace(/\s+/g, ' ').trim();
  return { ok: true, manifest: { name, description: oneLine, body: parsed.body.trim() } };
}
