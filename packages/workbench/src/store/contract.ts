import type { ConversationRecords } from './records/conversation.ts';
import type { ProjectRecords } from './records/project.ts';
import type { SessionRecords } from './records/session.ts';
import type { SettingsRecords } from './records/settings.ts';
import type { SkillRecords } from './records/skill.ts';
import type { TaskRecords } from './records/task.ts';

/**
 * The workbench's store contract: every record of the workbench (projects and their knowledge, tasks with
 * their todos, stage sessions and plan versions, sessions, settings, skills, conversations) behind one async
 * interface, one part per record (records/, a file each). SQLite (sqlite/) is the embedded dialect and
 * PostgreSQL's is `@keel/store-postgres/workbench`; each passes test/store/contract-suite.ts, and the row
 * mapping both share is rows.ts.
 *
 * Rules every dialect keeps:
 * - every method is async, so that a networked database fits the same contract;
 * - a read of one record by id throws the workbench's NOT_FOUND error of its kind (PROJECT_NOT_FOUND,
 *   TASK_NOT_FOUND, …) with the same message and details as today's answers; `find`/`exists` do not;
 * - a multi-row change (todo positions, a task's move, a task's stage session) is atomic, also when
 *   several processes share the database (a dialect that is not synchronous locks what it reads first);
 * - deleting a project deletes its knowledge, tasks (with theirs) and skill links; deleting a task deletes
 *   its todos, stage sessions and plan versions;
 * - timestamps are ISO 8601 strings in UTC (`new Date().toISOString()`).
 *
 * The services receive this (services.ts), never a database connection: projects and knowledge, skills,
 * conversations and settings directly; sessions through `Sessions` (which adds whether each is busy) and
 * tasks through `Tasks` (which moves them through the flow and tells the hub of changes).
 */

export type * from './records/conversation.ts';
export type * from './records/project.ts';
export type * from './records/session.ts';
export type * from './records/settings.ts';
export type * from './records/skill.ts';
export type * from './records/task.ts';

export interface WorkbenchStore {
  /** `sqlite` (or another dialect's name): shown in diagnostics. */
  readonly kind: string;
  readonly projects: ProjectRecords;
  readonly tasks: TaskRecords;
  readonly sessions: SessionRecords;
  readonly settings: SettingsRecords;
  readonly skills: SkillRecords;
  readonly conversations: ConversationRecords;
  close(): Promise<void>;
}
