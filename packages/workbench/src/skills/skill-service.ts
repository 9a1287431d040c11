import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { skillNameProblem } from '@keel/runtime';
import { WorkbenchError } from '../errors.ts';
import type { WorkbenchStore } from '../store/index.ts';
import type { Skill, SkillWithContent } from './types.ts';

export type { Skill, SkillWithContent } from './types.ts';

/**
 * The workbench's skill library: rows in the store, files at `{WORKBENCH_HOME}/skills/{name}/SKILL.md`
 * in the Agent Skills format (front matter with name and description, then the body), so a task's
 * `.skills/` copy is readable by any runner.
 */
export class SkillService {
  readonly #store: Pick<WorkbenchStore, 'skills' | 'projects'>;
  readonly #dir: string;

  constructor(store: Pick<WorkbenchStore, 'skills' | 'projects'>, dir: string) {
    this.#store = store;
    this.#dir = dir;
  }

  async list(projectId?: string): Promise<Skill[]> {
    return this.#store.skills.list(projectId);
  }

  async get(id: string): Promise<SkillWithContent> {
    const skill = await this.#store.skills.get(id);
    return { ...skill, content: this.#body(skill.name) };
  }

  async create(input: { name: string; description: string; content: string }): Promise<SkillWithContent> {
    const problem = skillNameProblem(input.name);
    if (problem) throw new WorkbenchError('INVALID_PARAMS', `name: ${problem}`, { field: 'name' });
    if (await this.#store.skills.findByName(input.name)) {
      throw new WorkbenchError('SKILL_EXISTS', `A skill named '${input.name}' exists already.`, {
        name: input.name,
      });
    }
    this.#write(input.name, input.description, input.content);
    const skill = await this.#store.skills.create({ name: input.name, description: input.description });
    return this.get(skill.id);
  }

  async update(
    id: string,
    patch: { description?: string | undefined; content?: string | undefined },
  ): Promise<SkillWithContent> {
    const current = await this.get(id);
    const description = patch.description ?? current.description;
    this.#write(current.name, description, patch.content ?? current.content);
    await this.#store.skills.update(id, { description });
    return this.get(id);
  }

  async remove(id: string): Promise<void> {
    const skill = await this.#store.skills.get(id);
    await this.#store.skills.remove(id);
    rmSync(join(this.#dir, skill.name), { recursive: true, force: true });
  }

  async link(id: string, projectId: string, linked: boolean): Promise<SkillWithContent> {
    await this.#store.skills.get(id);
    await this.#store.projects.get(projectId);
    await this.#store.skills.link(id, projectId, linked);
    return this.get(id);
  }

  /** The directories (`{skills}/{name}`) of the skills linked to a project. */
  async linkedDirs(projectId: string): Promise<{ name: string; dir: string }[]> {
    return (await this.list(projectId)).map((skill) => ({
      name: skill.name,
      dir: join(this.#dir, skill.name),
    }));
  }

  #write(name: string, description: string, content: string): void {
    const dir = join(this.#dir, name);
    mkdirSync(dir, { recursive: true });
    // JSON strings are valid YAML double-quoted scalars: any description survives the front matter.
    const text = `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\n${content.trim()}\n`;
    writeFileSync(join(dir, 'SKILL.md.tmp'), text);
    renameSync(join(dir, 'SKILL.md.tmp'), join(dir, 'SKILL.md'));
  }

  #body(name: string): string {
    let text: string;
    try {
      text = readFileSync(join(this.#dir, name, 'SKILL.md'), 'utf8');
    } catch {
      return '';
    }
    const match = /^---\n[\s\S]*?\n---\n\n?/.exec(text);
    return (match ? text.slice(match[0].length) : text).replace(/\n$/, '');
  }
}
