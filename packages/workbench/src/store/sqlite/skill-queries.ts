import { newId } from '@keel/runtime/store';
import { nowIso } from '../database.ts';
import { recordNotFound, skillExists } from '../not-found.ts';
import type { Skill } from '../records/skill.ts';
import type { Database } from './database.ts';

// The skills and skill_links tables.

type Row = { id: string; name: string; description: string; created_at: string; updated_at: string };

function withLinks(db: Database, row: Row): Skill {
  const links = db
    .prepare('SELECT project_id FROM skill_links WHERE skill_id = ? ORDER BY project_id')
    .all(row.id) as { project_id: string }[];
  return { ...row, project_ids: links.map((link) => link.project_id) };
}

export function listSkills(db: Database, projectId?: string): Skill[] {
  const rows = projectId
    ? db
        .prepare(
          'SELECT s.* FROM skills s JOIN skill_links l ON l.skill_id = s.id WHERE l.project_id = ? ORDER BY s.name',
        )
        .all(projectId)
    : db.prepare('SELECT * FROM skills ORDER BY name').all();
  return (rows as Row[]).map((row) => withLinks(db, { ...row }));
}

export function getSkill(db: Database, id: string): Skill {
  const row = db.prepare('SELECT * FROM skills WHERE id = ?').get(id) as Row | undefined;
  if (!row) throw recordNotFound.skill(id);
  return withLinks(db, { ...row });
}

export function findSkillByName(db: Database, name: string): Skill | undefined {
  const row = db.prepare('SELECT * FROM skills WHERE name = ?').get(name) as Row | undefined;
  return row ? withLinks(db, { ...row }) : undefined;
}

export function createSkill(db: Database, input: { name: string; description: string }): Skill {
  if (findSkillByName(db, input.name)) {
    throw skillExists(input.name);
  }
  const id = newId('skill');
  const now = nowIso();
  db.prepare('INSERT INTO skills (id, name, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(
    id,
    input.name,
    input.description,
    now,
    now,
  );
  return getSkill(db, id);
}

export function updateSkill(db: Database, id: string, patch: { description: string }): Skill {
  getSkill(db, id);
  db.prepare('UPDATE skills SET description = ?, updated_at = ? WHERE id = ?').run(
    patch.description,
    nowIso(),
    id,
  );
  return getSkill(db, id);
}

export function removeSkill(db: Database, id: string): void {
  getSkill(db, id);
  db.prepare('DELETE FROM skills WHERE id = ?').run(id);
}

export function linkSkill(db: Database, id: string, projectId: string, linked: boolean): void {
  if (linked) {
    db.prepare('INSERT OR IGNORE INTO skill_links (skill_id, project_id) VALUES (?, ?)').run(id, projectId);
  } else {
    db.prepare('DELETE FROM skill_links WHERE skill_id = ? AND project_id = ?').run(id, projectId);
  }
}
