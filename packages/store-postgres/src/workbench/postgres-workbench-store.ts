import type {
  ConversationRecords,
  ProjectRecords,
  SessionRecords,
  SettingsRecords,
  SkillRecords,
  TaskRecords,
  WorkbenchStore,
} from '@keel/workbench';
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
    const on =
      <A extends unknown[], R>(query: (db: WorkbenchDatabase, ...args: A) => Promise<R>) =>
      (...args: A): Promise<R> =>
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

  /** Ends the pool once (waiting for the queries under way); closing again is a no-op. */
  close(): Promise<void> {
    this.#closed ??= this.#db.pool.end().catch(() => {});
    return this.#closed;
  }
}
