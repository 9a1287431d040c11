import type { WorkbenchStore } from '../contract.ts';
import type { ConversationRecords } from '../records/conversation.ts';
import type { ProjectRecords } from '../records/project.ts';
import type { SessionRecords } from '../records/session.ts';
import type { SettingsRecords } from '../records/settings.ts';
import type { SkillRecords } from '../records/skill.ts';
import type { TaskRecords } from '../records/task.ts';
import { wireWorkbenchStore } from '../wire-store.ts';
import * as conversations from './conversation-queries.ts';
import { type Database, openDatabase } from './database.ts';
import * as projects from './project-queries.ts';
import * as sessions from './session-queries.ts';
import * as settings from './settings-queries.ts';
import * as skills from './skill-queries.ts';
import * as tasks from './task-queries.ts';
import * as todos from './todo-queries.ts';

/**
 * The WorkbenchStore contract on one SQLite database file (WAL). node:sqlite is synchronous: each method
 * does its reads and writes in one synchronous step, so a check and the write it guards (a task's move)
 * see nothing else between them, and the transactions are SQLite's own.
 */
export class SqliteWorkbenchStore implements WorkbenchStore {
  readonly kind = 'sqlite';
  /**
   * The connection itself. For the SQLite dialect's own code and for tests that set up or inspect rows
   * directly; services never use it (they receive the contract).
   */
  readonly db: Database;
  readonly projects: ProjectRecords;
  readonly tasks: TaskRecords;
  readonly sessions: SessionRecords;
  readonly settings: SettingsRecords;
  readonly skills: SkillRecords;
  readonly conversations: ConversationRecords;

  constructor(db: Database) {
    this.db = db;
    ({
      projects: this.projects,
      tasks: this.tasks,
      sessions: this.sessions,
      settings: this.settings,
      skills: this.skills,
      conversations: this.conversations,
    } = wireWorkbenchStore({ projects, tasks, todos, sessions, settings, skills, conversations }, db));
  }

  async close(): Promise<void> {
    if (this.db.isOpen) this.db.close();
  }
}

/** Opens (creating and migrating if needed) the workbench database at `path` as a WorkbenchStore. */
export function createSqliteWorkbenchStore(path: string): SqliteWorkbenchStore {
  return new SqliteWorkbenchStore(openDatabase(path));
}
