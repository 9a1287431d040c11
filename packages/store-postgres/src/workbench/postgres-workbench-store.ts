import type {
  ConversationRecords,
  ProjectRecords,
  SessionRecords,
  SettingsRecords,
  SkillRecords,
  TaskRecords,
  WorkbenchStore,
} from '@keel/workbench';
import { wireWorkbenchStore } from '@keel/workbench';
import type pg from 'pg';
import * as conversations from './conversation-queries.ts';
import { WorkbenchDatabase } from './database.ts';
import * as projects from './project-queries.ts';
import * as sessions from './session-queries.ts';
import * as settings from './settings-queries.ts';
import * as skills from './skill-queries.ts';
import * as tasks from './task-queries.ts';
import * as todos from './todo-queries.ts';

/**
 * The WorkbenchStore contract on PostgreSQL, shared by any number of workbench processes on any machines.
 * A change of several rows runs in one transaction; those of one task (its move, todo positions, plan
 * version numbers, stage sessions) first lock the task's row (SELECT … FOR UPDATE), so concurrent writers
 * take turns. Open it with `createPostgresWorkbenchStore`, which also migrates the schema.
 */
export class PostgresWorkbenchStore implements WorkbenchStore {
  readonly kind = 'postgres';
  readonly projects: ProjectRecords;
  readonly tasks: TaskRecords;
  readonly sessions: SessionRecords;
  readonly settings: SettingsRecords;
  readonly skills: SkillRecords;
  readonly conversations: ConversationRecords;
  readonly #db: WorkbenchDatabase;
  #closed: Promise<void> | undefined;

  /** Prefer `createPostgresWorkbenchStore`: this expects a migrated schema, and ends the pool on close. */
  constructor(pool: pg.Pool, schema: string) {
    const db = new WorkbenchDatabase(pool, schema);
    this.#db = db;
    ({
      projects: this.projects,
      tasks: this.tasks,
      sessions: this.sessions,
      settings: this.settings,
      skills: this.skills,
      conversations: this.conversations,
    } = wireWorkbenchStore({ projects, tasks, todos, sessions, settings, skills, conversations }, db));
  }

  /** Ends the pool once (waiting for the queries under way); closing again is a no-op. */
  close(): Promise<void> {
    this.#closed ??= this.#db.pool.end().catch(() => {});
    return this.#closed;
  }
}
