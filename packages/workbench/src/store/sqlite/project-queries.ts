import { newId } from '@keel/runtime/store';
import { nowIso } from '../database.ts';
import { recordNotFound } from '../not-found.ts';
import type {
  KnowledgeLayer,
  KnowledgePatch,
  KnowledgeRecord,
  NewProject,
  Project,
  ProjectPatch,
} from '../records/project.ts';
import { decodeJson, interrupted, projectFromRow, projectJsonColumns } from '../rows.ts';
import type { Database, Row } from './database.ts';

// Projects and their knowledge layers on SQLite.

function toProject(row: Row): Project {
  return projectFromRow(decodeJson(row, projectJsonColumns));
}

export function createProject(db: Database, input: NewProject): Project {
  const id = newId('prj');
  const now = nowIso();
  db.prepare(
    `INSERT INTO projects (id, name, description, repositories, default_runner, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'CREATED', ?, ?)`,
  ).run(
    id,
    input.name,
    input.description,
    JSON.stringify(input.repositories),
    input.default_runner,
    now,
    now,
  );
  return getProject(db, id);
}

export function listProjects(db: Database): Project[] {
  return (db.prepare('SELECT * FROM projects ORDER BY created_at, id').all() as Row[]).map(toProject);
}

export function getProject(db: Database, id: string): Project {
  const row = db.prepare('SELECT * FROM projects WHERE id = ?').get(id) as Row | undefined;
  if (!row) throw recordNotFound.project(id);
  return toProject(row);
}

export function updateProject(db: Database, id: string, patch: ProjectPatch): Project {
  const columns: string[] = [];
  const values: (string | number | null)[] = [];
  for (const [key, value] of Object.entries(patch)) {
    columns.push(`${key} = ?`);
    if (key === 'repositories') values.push(JSON.stringify(value));
    else if (typeof value === 'boolean') values.push(value ? 1 : 0);
    else values.push(value as string | null);
  }
  columns.push('updated_at = ?');
  values.push(nowIso());
  db.prepare(`UPDATE projects SET ${columns.join(', ')} WHERE id = ?`).run(...values, id);
  return getProject(db, id);
}

export function projectOfTask(db: Database, taskId: string): string | undefined {
  const row = db.prepare('SELECT project_id FROM tasks WHERE id = ?').get(taskId) as Row | undefined;
  return row ? (row.project_id as string) : undefined;
}

export function removeProject(db: Database, id: string): void {
  // The foreign keys (ON DELETE CASCADE / SET NULL) take its knowledge, tasks, links and conversations.
  db.prepare('DELETE FROM projects WHERE id = ?').run(id);
}

export function knowledge(db: Database, projectId: string): KnowledgeRecord[] {
  return db
    .prepare('SELECT * FROM knowledge WHERE project_id = ? ORDER BY repository, layer')
    .all(projectId) as unknown as KnowledgeRecord[];
}

export function setKnowledge(
  db: Database,
  projectId: string,
  repository: string,
  layer: KnowledgeLayer,
  patch: KnowledgePatch,
): void {
  const now = nowIso();
  db.prepare(
    `INSERT INTO knowledge (project_id, repository, layer, status, updated_at) VALUES (?, ?, ?, 'pending', ?)
     ON CONFLICT (project_id, repository, layer) DO NOTHING`,
  ).run(projectId, repository, layer, now);
  for (const [key, value] of Object.entries(patch)) {
    db.prepare(
      `UPDATE knowledge SET ${key} = ?, updated_at = ? WHERE project_id = ? AND repository = ? AND layer = ?`,
    ).run(value as string | null, now, projectId, repository, layer);
  }
}

export function clearKnowledge(db: Database, projectId: string): void {
  db.prepare('DELETE FROM knowledge WHERE project_id = ?').run(projectId);
}

export function failInterruptedProjects(db: Database): void {
  const now = nowIso();
  db.prepare(
    `UPDATE knowledge SET status = 'failed', error = ?, updated_at = ? WHERE status IN ('pending', 'running')`,
  ).run(interrupted.knowledge, now);
  db.prepare(
    `UPDATE projects SET status = 'FAILED', error = ?, updated_at = ? WHERE status = 'INITIALIZING'`,
  ).run(interrupted.project, now);
}
