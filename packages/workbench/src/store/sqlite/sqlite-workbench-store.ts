import type { WorkbenchStore } from '../contract.ts';
import type { ConversationRecords } from '../records/conversation.ts';
import type { ProjectRecords } from '../records/project.ts';
import type { SessionRecords } from '../records/session.ts';
import type { SettingsRecords } from '../records/settings.ts';
import type { SkillRecords } from '../records/skill.ts';
import type { TaskRecords } from '../records/task.ts';
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
    const on =
      <A extends unknown[], R>(query: (db: Database, ...args: A) => R) =>
      async (...args: A): Promise<R> =>
        query(db, ...args);
    this.projects = {
      create: on(projects.createProject),
      list: on(projects.listProjects),
      get: on(projects.getProject),
      update: on(projects.updateProject),
      projectOfTask: on(projects.projectOfTask),
      remove: on(projects.removeProject),
      knowledge: on(projects.knowledge),
      setKnowledge: on(projects.setKnowledge),
      clearKnowledge: on(projects.clearKnowledge),
      failInterrupted: on(projects.failInterruptedProjects),
    };
    this.tasks = {
      create: on(tasks.createTask),
      list: on(tasks.listTasks),
      get: on(tasks.getTask),
      exists: on(tasks.taskExists),
      update: on(tasks.updateTask),
      move: on(tasks.moveTask),
      remove: on(tasks.removeTask),
      sessionOf: on(tasks.sessionOf),
      setSession: on(tasks.setSession),
      todos: on(todos.listTodos),
      todo: on(todos.getTodo),
      replaceTodos: on(todos.replaceTodos),
      updateTodo: on(todos.updateTodo),
      insertTodo: on(todos.insertTodo),
      removeTodo: on(todos.removeTodo),
      reorderTodos: on(todos.reorderTodos),
      planVersions: on(todos.planVersions),
      planVersion: on(todos.planVersion),
      addPlanVersion: on(todos.addPlanVersion),
      failInterrupted: on(tasks.failInterruptedTasks),
    };
    this.sessions = {
      create: on(sessions.createSession),
      find: on(sessions.findSession),
      get: on(sessions.getSession),
      update: on(sessions.updateSession),
      byStatus: on(sessions.sessionsByStatus),
      endedBefore: on(sessions.sessionsEndedBefore),
      byOwner: on(sessions.sessionsByOwner),
    };
    this.settings = { read: on(settings.readSettings), write: on(settings.writeSettings) };
    this.skills = {
      list: on(skills.listSkills),
      get: on(skills.getSkill),
      findByName: on(skills.findSkillByName),
      create: on(skills.createSkill),
      update: on(skills.updateSkill),
      remove: on(skills.removeSkill),
      link: on(skills.linkSkill),
    };
    this.conversations = {
      list: on(conversations.listConversations),
      get: on(conversations.getConversation),
      create: on(conversations.createConversation),
      update: on(conversations.updateConversation),
      remove: on(conversations.removeConversation),
    };
  }

  async close(): Promise<void> {
    if (this.db.isOpen) this.db.close();
  }
}

/** Opens (creating and migrating if needed) the workbench database at `path` as a WorkbenchStore. */
export function createSqliteWorkbenchStore(path: string): SqliteWorkbenchStore {
  return new SqliteWorkbenchStore(openDatabase(path));
}
