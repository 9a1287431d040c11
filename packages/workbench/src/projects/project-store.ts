import { newId } from '@keel/runtime/store';
import { WorkbenchError } from '../errors.ts';
import { type Database, fromJson, nowIso } from '../store/index.ts';
import {
  defaultRepairTurns,
  type KnowledgeLayer,
  type KnowledgeRecord,
  type Project,
  type Repository,
} from './types.ts';

type Row = Record<string, unknown>;

function toProject(row: Row): Project {
  return {
    id: row.id as string,
    name: row.name as string,
    description: row.description as string,
    repositories: fromJson<Repository[]>(row.repositories, []),
    default_runner: (row.default_runner as string | null) ?? null,
    trust_repository_config: Number(row.trust_repository_config ?? 0) === 1,
    repair_turns: Number(row.repair_turns ?? defaultRepairTurns),
    review_runner: (row.review_runner as string | null) ?? null,
    status: row.status as Project['status'],
    error: (row.error as string | null) ?? null,
    created_at: row.created_at as string,
    updated_at: row.updated_at as string,
  };
}

/** The projects and knowledge tables. */
export class ProjectStore {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  create(input: Pick<Project, 'name' | 'description' | 'repositories' | 'default_runner'>): Project {
    const id = newId('prj');
    const now = nowIso();
    this.#db
      .prepare(
        `INSERT INTO projects (id, name, description, repositories, default_runner, status, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 'CREATED', ?, ?)`,
      )
      .run(
        id,
        input.name,
        input.description,
        JSON.stringify(input.repositories),
        input.default_runner,
        now,
        now,
      );
    return this.get(id);
  }

  list(): Project[] {
    return (this.#db.prepare('SELECT * FROM projects ORDER BY created_at, id').all() as Row[]).map(toProject);
  }

  get(id: string): Project {
    const row = this.#db.prepare('SELECT * FROM projects WHERE id = ?').get(id) as Row | undefined;
    if (!row) throw new WorkbenchError('PROJECT_NOT_FOUND', `No project '${id}'.`, { project_id: id });
    return toProject(row);
  }

  update(id: string, patch: Partial<Omit<Project, 'id' | 'created_at' | 'updated_at'>>): Project {
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
    this.#db.prepare(`UPDATE projects SET ${columns.join(', ')} WHERE id = ?`).run(...values, id);
    return this.get(id);
  }

  /** The project of a task, or undefined when there is no such task (a task directory's owner). */
  projectOfTask(taskId: string): string | undefined {
    const row = this.#db.prepare('SELECT project_id FROM tasks WHERE id = ?').get(taskId) as Row | undefined;
    return row ? (row.project_id as string) : undefined;
  }

  remove(id: string): void {
    this.#db.prepare('DELETE FROM projects WHERE id = ?').run(id);
  }

  knowledge(projectId: string): KnowledgeRecord[] {
    return this.#db
      .prepare('SELECT * FROM knowledge WHERE project_id = ? ORDER BY repository, layer')
      .all(projectId) as unknown as KnowledgeRecord[];
  }

  setKnowledge(
    projectId: string,
    repository: string,
    layer: KnowledgeLayer,
    patch: Partial<Pick<KnowledgeRecord, 'status' | 'error' | 'session_id'>>,
  ): void {
    const now = nowIso();
    this.#db
      .prepare(
        `INSERT INTO knowledge (project_id, repository, layer, status, updated_at) VALUES (?, ?, ?, 'pending', ?)
         ON CONFLICT (project_id, repository, layer) DO NOTHING`,
      )
      .run(projectId, repository, layer, now);
    for (const [key, value] of Object.entries(patch)) {
      this.#db
        .prepare(
          `UPDATE knowledge SET ${key} = ?, updated_at = ? WHERE project_id = ? AND repository = ? AND layer = ?`,
        )
        .run(value as string | null, now, projectId, repository, layer);
    }
  }

  clearKnowledge(projectId: string): void {
    this.#db.prepare('DELETE FROM knowledge WHERE project_id = ?').run(projectId);
  }

  /** Crash repair: layers left pending or running failed, and their projects with them. */
  failInterrupted(): void {
    const now = nowIso();
    this.#db
      .prepare(
        `UPDATE knowledge SET status = 'failed', error = 'interrupted: the workbench stopped; retry this layer', updated_at = ?
         WHERE status IN ('pending', 'running')`,
      )
      .run(now);
    this.#db
      .prepare(
        `UPDATE projects SET status = 'FAILED', error = 'knowledge generation was interrupted', updated_at = ? WHERE status = 'INITIALIZING'`,
      )
      .run(now);
  }
}
