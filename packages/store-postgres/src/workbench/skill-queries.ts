import { newId } from '@keel/runtime/store';
import type { Skill } from '@keel/workbench';
import { recordNotFound, skillExists } from '@keel/workbench';
import type { Sql, Violation } from './database.ts';
import { hasNul, now } from './database.ts';

// The skill library's rows and their links to projects.

/** The skills with their linked project ids, sorted, in one query (the record's key order, SQLite's). */
function selectSkills(db: Sql, where: string): string {
  return `SELECT s.id, s.name, s.description, s.created_at, s.updated_at,
       COALESCE((SELECT array_agg(l.project_id ORDER BY l.project_id) FROM ${db.t.skillLinks} l
                 WHERE l.skill_id = s.id), '{}') AS project_ids
     FROM ${db.t.skills} s ${where}`;
}

export async function listSkills(db: Sql, projectId?: string): Promise<Skill[]> {
  return projectId
    ? db.rows<Skill>(
        selectSkills(
          db,
          `WHERE EXISTS (SELECT 1 FROM ${db.t.skillLinks} l WHERE l.skill_id = s.id AND l.project_id = $1) ORDER BY s.name`,
        ),
        [projectId],
      )
    : db.rows<Skill>(selectSkills(db, 'ORDER BY s.name'));
}

export async function getSkill(db: Sql, id: string): Promise<Skill> {
  const row = await db.row<Skill>(selectSkills(db, 'WHERE s.id = $1'), [id]);
  if (!row) throw recordNotFound.skill(id);
  return row;
}

export async function findSkillByName(db: Sql, name: string): Promise<Skill | undefined> {
  return db.row<Skill>(selectSkills(db, 'WHERE s.name = $1'), [name]);
}

/** A name in use is SKILL_EXISTS, also when another process takes it between the check and the insert. */
export async function createSkill(db: Sql, input: { name: string; description: string }): Promise<Skill> {
  if (await findSkillByName(db, input.name)) throw skillExists(input.name);
  const id = newId('skill');
  await db.rows(
    `INSERT INTO ${db.t.skills} (id, name, description, created_at, updated_at) VALUES ($1, $2, $3, ${now}, ${now})`,
    [id, input.name, input.description],
    (code) => (code === '23505' ? skillExists(input.name) : undefined),
  );
  return getSkill(db, id);
}

export async function updateSkill(db: Sql, id: string, patch: { description: string }): Promise<Skill> {
  if (hasNul(id)) throw recordNotFound.skill(id);
  const row = await db.row(
    `UPDATE ${db.t.skills} SET description = $1, updated_at = ${now} WHERE id = $2 RETURNING id`,
    [patch.description, id],
  );
  if (!row) throw recordNotFound.skill(id);
  return getSkill(db, id);
}

export async function removeSkill(db: Sql, id: string): Promise<void> {
  // Its links go with it (ON DELETE CASCADE).
  const row = await db.row(`DELETE FROM ${db.t.skills} WHERE id = $1 RETURNING id`, [id]);
  if (!row) throw recordNotFound.skill(id);
}

export async function linkSkill(db: Sql, id: string, projectId: string, linked: boolean): Promise<void> {
  // A link to a skill or project that is not there is that one's 404 (the foreign key says which).
  const unknown: Violation = (code, constraint) =>
    code !== '23503'
      ? undefined
      : constraint?.endsWith('project_id_fkey')
        ? recordNotFound.project(projectId)
        : recordNotFound.skill(id);
  if (linked) {
    if (hasNul(id)) throw recordNotFound.skill(id);
    if (hasNul(projectId)) throw recordNotFound.project(projectId);
    await db.rows(
      `INSERT INTO ${db.t.skillLinks} (skill_id, project_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
      [id, projectId],
      unknown,
    );
  } else {
    await db.rows(`DELETE FROM ${db.t.skillLinks} WHERE skill_id = $1 AND project_id = $2`, [id, projectId]);
  }
}
