import type { WorkbenchStore } from './contract.ts';
import type { ConversationRecords } from './records/conversation.ts';
import type { ProjectRecords } from './records/project.ts';
import type { SessionRecords } from './records/session.ts';
import type { SettingsRecords } from './records/settings.ts';
import type { SkillRecords } from './records/skill.ts';
import type { TaskRecords } from './records/task.ts';

/**
 * A contract method as a dialect writes it: the dialect's connection first, then the method's arguments,
 * answering at once (SQLite) or later (PostgreSQL).
 */
export type StoreQuery<Db, Method> = Method extends (...args: infer A) => Promise<infer R>
  ? (db: Db, ...args: A) => R | Promise<R>
  : never;

/** The query modules every dialect has (its `*-queries.ts` files), by the names they export. */
export interface WorkbenchQueries<Db> {
  projects: {
    createProject: StoreQuery<Db, ProjectRecords['create']>;
    listProjects: StoreQuery<Db, ProjectRecords['list']>;
    getProject: StoreQuery<Db, ProjectRecords['get']>;
    updateProject: StoreQuery<Db, ProjectRecords['update']>;
    projectOfTask: StoreQuery<Db, ProjectRecords['projectOfTask']>;
    removeProject: StoreQuery<Db, ProjectRecords['remove']>;
    knowledge: StoreQuery<Db, ProjectRecords['knowledge']>;
    setKnowledge: StoreQuery<Db, ProjectRecords['setKnowledge']>;
    clearKnowledge: StoreQuery<Db, ProjectRecords['clearKnowledge']>;
    failInterruptedProjects: StoreQuery<Db, ProjectRecords['failInterrupted']>;
  };
  tasks: {
    createTask: StoreQuery<Db, TaskRecords['create']>;
    listTasks: StoreQuery<Db, TaskRecords['list']>;
    getTask: StoreQuery<Db, TaskRecords['get']>;
    taskExists: StoreQuery<Db, TaskRecords['exists']>;
    updateTask: StoreQuery<Db, TaskRecords['update']>;
    moveTask: StoreQuery<Db, TaskRecords['move']>;
    removeTask: StoreQuery<Db, TaskRecords['remove']>;
    sessionOf: StoreQuery<Db, TaskRecords['sessionOf']>;
    setSession: StoreQuery<Db, TaskRecords['setSession']>;
    failInterruptedTasks: StoreQuery<Db, TaskRecords['failInterrupted']>;
  };
  todos: {
    listTodos: StoreQuery<Db, TaskRecords['todos']>;
    getTodo: StoreQuery<Db, TaskRecords['todo']>;
    replaceTodos: StoreQuery<Db, TaskRecords['replaceTodos']>;
    updateTodo: StoreQuery<Db, TaskRecords['updateTodo']>;
    insertTodo: StoreQuery<Db, TaskRecords['insertTodo']>;
    removeTodo: StoreQuery<Db, TaskRecords['removeTodo']>;
    reorderTodos: StoreQuery<Db, TaskRecords['reorderTodos']>;
    planVersions: StoreQuery<Db, TaskRecords['planVersions']>;
    planVersion: StoreQuery<Db, TaskRecords['planVersion']>;
    addPlanVersion: StoreQuery<Db, TaskRecords['addPlanVersion']>;
  };
  sessions: {
    createSession: StoreQuery<Db, SessionRecords['create']>;
    findSession: StoreQuery<Db, SessionRecords['find']>;
    getSession: StoreQuery<Db, SessionRecords['get']>;
    updateSession: StoreQuery<Db, SessionRecords['update']>;
    sessionsByStatus: StoreQuery<Db, SessionRecords['byStatus']>;
    sessionsEndedBefore: StoreQuery<Db, SessionRecords['endedBefore']>;
    sessionsByOwner: StoreQuery<Db, SessionRecords['byOwner']>;
  };
  settings: {
    readSettings: StoreQuery<Db, SettingsRecords['read']>;
    writeSettings: StoreQuery<Db, SettingsRecords['write']>;
  };
  skills: {
    listSkills: StoreQuery<Db, SkillRecords['list']>;
    getSkill: StoreQuery<Db, SkillRecords['get']>;
    findSkillByName: StoreQuery<Db, SkillRecords['findByName']>;
    createSkill: StoreQuery<Db, SkillRecords['create']>;
    updateSkill: StoreQuery<Db, SkillRecords['update']>;
    removeSkill: StoreQuery<Db, SkillRecords['remove']>;
    linkSkill: StoreQuery<Db, SkillRecords['link']>;
  };
  conversations: {
    listConversations: StoreQuery<Db, ConversationRecords['list']>;
    getConversation: StoreQuery<Db, ConversationRecords['get']>;
    createConversation: StoreQuery<Db, ConversationRecords['create']>;
    updateConversation: StoreQuery<Db, ConversationRecords['update']>;
    removeConversation: StoreQuery<Db, ConversationRecords['remove']>;
  };
}

/** The record parts of a WorkbenchStore: what a dialect wires from its queries. */
export type WorkbenchRecordParts = Omit<WorkbenchStore, 'kind' | 'close'>;

/**
 * Wires a dialect's query modules into the store contract, each method running its query on `db`. Every
 * method answers a promise; one that throws, at once or later, rejects it.
 *
 * @example
 * const parts = wireWorkbenchStore({ projects, tasks, todos, sessions, settings, skills, conversations }, db);
 */
export function wireWorkbenchStore<Db>(queries: WorkbenchQueries<Db>, db: Db): WorkbenchRecordParts {
  const on =
    <A extends unknown[], R>(query: (db: Db, ...args: A) => R | Promise<R>) =>
    async (...args: A): Promise<R> =>
      query(db, ...args);
  const { projects, tasks, todos, sessions, settings, skills, conversations } = queries;
  return {
    projects: {
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
    },
    tasks: {
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
    },
    sessions: {
      create: on(sessions.createSession),
      find: on(sessions.findSession),
      get: on(sessions.getSession),
      update: on(sessions.updateSession),
      byStatus: on(sessions.sessionsByStatus),
      endedBefore: on(sessions.sessionsEndedBefore),
      byOwner: on(sessions.sessionsByOwner),
    },
    settings: { read: on(settings.readSettings), write: on(settings.writeSettings) },
    skills: {
      list: on(skills.listSkills),
      get: on(skills.getSkill),
      findByName: on(skills.findSkillByName),
      create: on(skills.createSkill),
      update: on(skills.updateSkill),
      remove: on(skills.removeSkill),
      link: on(skills.linkSkill),
    },
    conversations: {
      list: on(conversations.listConversations),
      get: on(conversations.getConversation),
      create: on(conversations.createConversation),
      update: on(conversations.updateConversation),
      remove: on(conversations.removeConversation),
    },
  };
}
