import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { skillNameProblem } from '@keel/runtime';
import { newId } from '@keel/runtime/store';
import { WorkbenchError } from '../errors.ts';
import type { ProjectStore } from '../projects/index.ts';
import { type Database, nowIso } from '../store/index.ts';

export interface Skill {
  id: string;
  name: string;
  description: string;
  /** Ids of the projects the skill is linked to. */
  project_ids: string[];
  created_at: string;
  updated_at: string;
}

export interface SkillWithContent extends Skill {
  /** The SKILL.md body (after its front matter). */
  content: string;
}

type Row = { id: string; name: string; description: string; created_at: string; updated_at: string };

/**
 * The workbench's skill library: rows in the database, files at `{WORKBENCH_HOME}/skills/{name}/SKILL.md`
 * in the Agent Skills format (front matter with name and description, then the body), so a task's
 * `.skills/` copy is readable by any runner.
 */
export class SkillService {
  readonly #db: Database;
  readonly #dir: string;
  readonly #projects: ProjectStore;

  constructor(db: Database, dir: string, projects: ProjectStore) {
    this.#db = db;
    this.#dir = dir;
    this.#projects = projects;
  }

  list(projectId?: string): Skill[] {
    const rows = projectId
      ? this.#db
          .prepare(
            'SELECT s.* FROM skills s JOIN skill_links l ON l.skill_id = s.id WHERE l.project_id = ? ORDER BY s.name',
          )
          .all(projectId)
      : this.#db.prepare('SELECT * FROM skills ORDER BY name').all();
    return (rows as Row[]).map((row) => this.#withLinks(row));
  }

  get(id: string): SkillWithContent {
    const skill = this.#withLinks(this.#row(id));
    return { ...skill, content: this.#body(skill.name) };
  }

  create(input: { name: string; description: string; content: string }): SkillWithContent {
    const problem = skillNameProblem(input.name);
    if (problem) throw new WorkbenchError('INVALID_PARAMS', `name: ${problem}`, { field: 'name' });
    if (this.#db.prepare('SELECT id FROM skills WHERE name = ?').get(input.name)) {
      throw new WorkbenchError('SKILL_EXISTS', `A skill named '${input.name}' exists already.`, {
        name: input.name,
      });
    }
    const id = newId('skill');
    const now = nowIso();
    this.#write(input.name, input.description, input.content);
    this.#db
      .prepare('INSERT INTO skills (id, name, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
      .run(id, input.name, input.description, now, now);
    return this.get(id);
  }

  update(
    id: string,
    patch: { description?: string | undefined; content?: string | undefined },
  ): SkillWithContent {
    const current = this.get(id);
    const description = patch.description ?? current.description;
    this.#write(current.name, description, patch.content ?? current.content);
    this.#db
      .prepare('UPDATE skills SET description = ?, updated_at = ? WHERE id = ?')
      .run(description, nowIso(), id);
    return this.get(id);
  }

  remove(id: string): void {
    const row = this.#row(id);
    this.#db.prepare('DELETE FROM skills WHERE id = ?').run(id);
    rmSync(join(this.#dir, row.name), { recursive: true, force: true });
  }

  link(id: string, projectId: string, linked: boolean): SkillWithContent {
    this.#row(id);
    this.#projects.get(projectId);
    if (linked) {
      this.#db
        .prepare('INSERT OR IGNORE INTO skill_links (skill_id, project_id) VALUES (?, ?)')
        .run(id, projectId);
    } else {
      this.#db.prepare('DELETE FROM skill_links WHERE skill_id = ? AND project_id = ?').run(id, projectId);
    }
    return this.get(id);
  }

  /** The directories (`{skills}/{name}`) of the skills linked to a project. */
  linkedDirs(projectId: string): { name: string; dir: string }[] {
    return this.list(projectId).map((skill) => ({ name: skill.name, dir: join(this.#dir, skill.name) }));
  }

  #row(id: string): Row {
    const row = this.#db.prepare('SELECT * FROM skills WHERE id = ?').get(id) as Row | undefined;
    if (!row) throw new WorkbenchError('SKILL_NOT_FOUND', `No skill '${id}'.`, { skill_id: id });
    return row;
  }

  #withLinks(row: Row): Skill {
    const links = this.#db
      .prepare('SELECT project_id FROM skill_links WHERE skill_id = ? ORDER BY project_id')
      .all(row.id) as {
      project_id: string;
    }[];
    return { ...row, project_ids: links.map((link) => link.project_id) };
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
