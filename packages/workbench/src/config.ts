import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Everything the workbench reads from its environment, read in this one place. */
export interface WorkbenchConfig {
  /** Data directory (`WORKBENCH_HOME`, default `~/.workbench`). */
  home: string;
  /** Days a finished session's JSONL log is kept (`WORKBENCH_LOG_RETENTION_DAYS`, default 30). */
  logRetentionDays: number;
  /** Allowed CORS origins (`WORKBENCH_CORS_ORIGINS`, comma separated). */
  corsOrigins: string[];
  /** Bearer key every endpoint but health and docs needs (`WORKBENCH_AUTH_API_KEY`; unset: open). */
  apiKey: string | undefined;
  /** Host names answered besides loopback (`WORKBENCH_ALLOWED_HOSTS`, comma separated): DNS rebinding. */
  allowedHosts: string[];
  /** PostgreSQL to keep the records in (`WORKBENCH_DATABASE_URL`; unset: SQLite, `workbench.db` in home). */
  databaseUrl: string | undefined;
}

export const defaultCorsOrigins = [
  'http://localhost:3000',
  'http://127.0.0.1:3000',
  'http://localhost:8000',
  'http://127.0.0.1:8000',
];

export function readConfig(env: Record<string, string | undefined>): WorkbenchConfig {
  const days = Number(env.WORKBENCH_LOG_RETENTION_DAYS);
  const list = (value: string | undefined) =>
    (value ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
  const origins = list(env.WORKBENCH_CORS_ORIGINS);
  return {
    home: resolve(env.WORKBENCH_HOME || join(homedir(), '.workbench')),
    logRetentionDays: env.WORKBENCH_LOG_RETENTION_DAYS && Number.isFinite(days) && days >= 0 ? days : 30,
    corsOrigins: origins.length > 0 ? origins : defaultCorsOrigins,
    apiKey: env.WORKBENCH_AUTH_API_KEY || undefined,
    allowedHosts: list(env.WORKBENCH_ALLOWED_HOSTS),
    databaseUrl: env.WORKBENCH_DATABASE_URL || undefined,
  };
}

/** Where each kind of data lives under the data directory. */
export interface WorkbenchPaths {
  home: string;
  database: string;
  secrets: string;
  sessionLog(sessionId: string): string;
  sessionsDir: string;
  knowledgeDir(projectId: string): string;
  taskDir(taskId: string): string;
  skillsDir: string;
}

export function workbenchPaths(home: string): WorkbenchPaths {
  return {
    home,
    database: join(home, 'workbench.db'),
    secrets: join(home, 'secrets.json'),
    sessionsDir: join(home, 'sessions'),
    sessionLog: (sessionId) => join(home, 'sessions', `${sessionId}.jsonl`),
    knowledgeDir: (projectId) => join(home, 'projects', projectId, 'knowledge'),
    taskDir: (taskId) => join(home, 'tasks', taskId),
    skillsDir: join(home, 'skills'),
  };
}
