import { newId } from '@keel/runtime/store';
import type {
  KnowledgeLayer,
  KnowledgePatch,
  KnowledgeRecord,
  NewProject,
  Project,
  ProjectPatch,
} from '@keel/workbench';
import { interrupted, projectFromRow, projectJsonColumns, recordNotFound } from '@keel/workbench';
import type { Row, Sql, Violation, WorkbenchDatabase } from './database.ts';
import { column, hasNul, jsonParam, now, setList } from './database.ts';

// Projects and their knowledge layers.

/** A row naming a project that is not there (a foreign key) is that project's 404. */
export function unknownProject(id: string | null): Violation {
  return (code) => (code === '23503' && id !== null ? recordNotFound.project(id) : undefined);
}

export async function createProject(db: Sql, input: NewProject): Promise<Project> {
  const row = await db.row(
    `INSERT INTO ${db.t.projects} (id, name, description, repositories, default_runner, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, 'CREATED', ${now}, ${now}) RETURNING *`,
    [newId('prj'), input.name, input.description, jsonParam(input.repositories), input.default_runner],
  );
  return projectFromRow(row as Row);
}

export async function listProjects(db: Sql): Promise<Project[]> {
  return (await db.rows(`SELECT * FROM ${db.t.projects} ORDER BY created_at, id`)).map(projectFromRow);
}

export async function getProject(db: Sql, id: string): Promise<Project> {
  const row = await db.row(`SELECT * FROM ${db.t.projects} WHERE id = $1`, [id]);
  if (!row) throw recordNotFound.project(id);
  return projectFromRow(row);
}

export async function updateProject(db: Sql, id: string, patch: ProjectPatch): Promise<Project> {
  if (hasNul(id)) throw recordNotFound.project(id);
  const { sql, values } = setList(patch, projectJsonColumns);
  const row = await db.row(
    `UPDATE ${db.t.projects} SET ${sql} WHERE id = $${values.length + 1} RETURNING *`,
    [...values, id],
  );
  if (!row) throw recordNotFound.project(id);
  return projectFromRow(row);
}

export async function projectOfTask(db: Sql, taskId: string): Promise<string | undefined> {
  const row = await db.row<{ project_id: string }>(`SELECT project_id FROM ${db.t.tasks} WHERE id = $1`, [
    taskId,
  ]);
  return row?.project_id;
}

export async function removeProject(db: Sql, id: string): Promise<void> {
  // One statement: the foreign keys (ON DELETE CASCADE / SET NULL) take its knowledge, tasks (with their
  // todos, stage sessions and plan versions), skill links, and free its conversations, atomically.
  await db.rows(`DELETE FROM ${db.t.projects} WHERE id = $1`, [id]);
}

export async function knowledge(db: Sql, projectId: string): Promise<KnowledgeRecord[]> {
  return db.rows<KnowledgeRecord>(
    `SELECT * FROM ${db.t.knowledge} WHERE project_id = $1 ORDER BY repository, layer`,
    [projectId],
  );
}

/** Made pending when missing, then patched: one statement, so a concurrent first write cannot collide. */
export async function setKnowledge(
  db: Sql,
  projectId: string,
  repository: string,
  layer: KnowledgeLayer,
  patch: KnowledgePatch,
): Promise<void> {
  if (hasNul(projectId)) throw recordNotFound.project(projectId);
  const given = new Map(Object.entries(patch).filter(([, value]) => value !== undefined));
  const values: unknown[] = [projectId, repository, layer];
  const inserted = ['status', ...[...given.keys()].filter((key) => key !== 'status')];
  const insertValues = inserted.map((key) => {
    if (!given.has(key)) return "'pending'";
    values.push(given.get(key));
    return `$${values.length}`;
  });
  const updates = [...given.keys()].map((key) => `${column(key)} = EXCLUDED.${column(key)}`);
  await db.rows(
    `INSERT INTO ${db.t.knowledge} (project_id, repository, layer, ${inserted.map(column).join(', ')}, updated_at)
     VALUES ($1, $2, $3, ${insertValues.join(', ')}, ${now})
     ON CONFLICT (project_id, repository, layer) DO ${
       updates.length > 0 ? `UPDATE SET ${updates.join(', ')}, updated_at = EXCLUDED.updated_at` : 'NOTHING'
     }`,
    values,
    unknownProject(projectId),
  );
}

export async function clearKnowledge(db: Sql, projectId: string): Promise<void> {
  await db.rows(`DELETE FROM ${db.t.knowledge} WHERE project_id = $1`, [projectId]);
}

export async function failInterruptedProjects(db: WorkbenchDatabase): Promise<void> {
  await db.transaction(async (sql) => {
    await sql.rows(
      `UPDATE ${sql.t.knowledge} SET status = 'failed', error = $1, updated_at = ${now} WHERE status IN ('pending', 'running')`,
      [interrupted.knowledge],
    );
    await sql.rows(
      `UPDATE ${sql.t.projects} SET status = 'FAILED', error = $1, updated_at = ${now} WHERE status = 'INITIALIZING'`,
      [interrupted.project],
    );
  });
}
