import { type Database, projectQueries as queries } from '../store/index.ts';
import type { KnowledgeLayer, KnowledgeRecord, Project } from './types.ts';

/**
 * The projects and knowledge tables, synchronously: a transitional face over the SQLite dialect's queries
 * for the callers not yet moved to the async `WorkbenchStore` contract (`store.projects`).
 */
export class ProjectStore {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  create(input: Pick<Project, 'name' | 'description' | 'repositories' | 'default_runner'>): Project {
    return queries.createProject(this.#db, input);
  }

  list(): Project[] {
    return queries.listProjects(this.#db);
  }

  get(id: string): Project {
    return queries.getProject(this.#db, id);
  }

  update(id: string, patch: Partial<Omit<Project, 'id' | 'created_at' | 'updated_at'>>): Project {
    return queries.updateProject(this.#db, id, patch);
  }

  /** The project of a task, or undefined when there is no such task (a task directory's owner). */
  projectOfTask(taskId: string): string | undefined {
    return queries.projectOfTask(this.#db, taskId);
  }

  remove(id: string): void {
    queries.removeProject(this.#db, id);
  }

  knowledge(projectId: string): KnowledgeRecord[] {
    return queries.knowledge(this.#db, projectId);
  }

  setKnowledge(
    projectId: string,
    repository: string,
    layer: KnowledgeLayer,
    patch: Partial<Pick<KnowledgeRecord, 'status' | 'error' | 'session_id'>>,
  ): void {
    queries.setKnowledge(this.#db, projectId, repository, layer, patch);
  }

  clearKnowledge(projectId: string): void {
    queries.clearKnowledge(this.#db, projectId);
  }

  /** Crash repair: layers left pending or running failed, and their projects with them. */
  failInterrupted(): void {
    queries.failInterruptedProjects(this.#db);
  }
}
