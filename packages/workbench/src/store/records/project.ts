import type { KnowledgeLayer, KnowledgeRecord, Project } from '../../projects/index.ts';

export type { KnowledgeLayer, KnowledgeRecord, Project };

/** What a new project is made of; it starts CREATED. */
export type NewProject = Pick<Project, 'name' | 'description' | 'repositories' | 'default_runner'>;
/** The fields a project update may set (every other field keeps its value). */
export type ProjectPatch = Partial<Omit<Project, 'id' | 'created_at' | 'updated_at'>>;
/** The fields of a knowledge layer an update may set. */
export type KnowledgePatch = Partial<Pick<KnowledgeRecord, 'status' | 'error' | 'session_id'>>;

/** Projects and their knowledge layers. */
export interface ProjectRecords {
  create(input: NewProject): Promise<Project>;
  /** Oldest first (created_at, then id). */
  list(): Promise<Project[]>;
  /** Throws 404 PROJECT_NOT_FOUND. */
  get(id: string): Promise<Project>;
  /** Sets the fields of `patch` and updated_at; PROJECT_NOT_FOUND for an unknown id. */
  update(id: string, patch: ProjectPatch): Promise<Project>;
  /** The project of a task, or undefined when there is no such task. */
  projectOfTask(taskId: string): Promise<string | undefined>;
  /** Deletes the project with its knowledge rows, tasks and skill links; conversations keep a null project. */
  remove(id: string): Promise<void>;
  /** The project's knowledge layers, by repository then layer. */
  knowledge(projectId: string): Promise<KnowledgeRecord[]>;
  /** Creates the layer (pending) when missing, then sets the fields of `patch`. */
  setKnowledge(
    projectId: string,
    repository: string,
    layer: KnowledgeLayer,
    patch: KnowledgePatch,
  ): Promise<void>;
  clearKnowledge(projectId: string): Promise<void>;
  /** Crash repair: layers left pending or running fail, and INITIALIZING projects with them. */
  failInterrupted(): Promise<void>;
}

/** How many repair turns a todo whose checks fail gets by default (a project without its own), before it is `failed`. */
export const defaultRepairTurns = 2;
