import { z } from 'zod';
import * as answers from './answers.ts';
import { errorBody, errorObject, health, usage } from './common.ts';
import * as diffs from './diffs.ts';
import * as events from './events.ts';
import * as library from './library.ts';
import * as requests from './other-requests.ts';
import * as previews from './previews.ts';
import * as projectRequests from './project-requests.ts';
import * as projects from './projects.ts';
import * as sessions from './sessions.ts';
import * as settings from './settings.ts';
import * as settingsRequests from './settings-requests.ts';
import * as taskRequests from './task-requests.ts';
import * as tasks from './tasks.ts';

/**
 * The names the workbench's OpenAPI document gives its records and request bodies (`components.schemas`):
 * a route's schema found here is a `$ref` there, and a client generated from the document gets a type of
 * that name. Each is the name of this package's TypeScript type, but for the request bodies typed
 * `…Input`, named `…Request`: the document's generator keeps `…Input` for a record as a request reads it.
 * A request body's parts are not named: the body reads whole where it is used.
 */
export const workbenchComponents = z.registry<{ id: string }>();

const records = {
  ErrorBody: errorBody,
  ErrorObject: errorObject,
  Usage: usage,
  Health: health,
  TaskWithSession: answers.taskWithSession,
  TodoWithSession: answers.todoWithSession,
  TaskWithTodos: answers.taskWithTodos,
  TodoWithList: answers.todoWithList,
  PlanSaved: answers.planSaved,
  PlanVersionList: answers.planVersionList,
  ProjectInitStarted: answers.projectInitStarted,
  ConversationStarted: answers.conversationStarted,
  FileChange: diffs.fileChange,
  RepositoryDiff: diffs.repositoryDiff,
  TaskDiff: diffs.taskDiff,
  TodoDiff: diffs.todoDiff,
  FileDiff: diffs.fileDiff,
  SessionEvent: events.sessionEvent,
  LogEntry: events.logEntry,
  LogPage: events.logPage,
  Skill: library.skill,
  SkillWithContent: library.skillWithContent,
  SkillList: library.skillList,
  Conversation: library.conversation,
  ConversationList: library.conversationList,
  DirectoryListing: library.directoryListing,
  Preview: previews.preview,
  PreviewList: previews.previewList,
  PreviewLog: previews.previewLog,
  CheckSetting: projects.checkSetting,
  SetupSetting: projects.setupSetting,
  PreviewSetting: projects.previewSetting,
  Repository: projects.repository,
  Project: projects.project,
  ProjectList: projects.projectList,
  KnowledgeRecord: projects.knowledgeLayer,
  Knowledge: projects.knowledge,
  RepositoryConfigAsk: projects.repositoryConfigAsk,
  RepositoryConfigReport: projects.repositoryConfigReport,
  ProjectRepositoryConfig: projects.projectRepositoryConfig,
  Session: sessions.session,
  QueuedMessage: sessions.queuedMessage,
  SessionQueue: sessions.sessionQueue,
  SentMessage: sessions.sentMessage,
  RunnerConfig: settings.runnerConfig,
  McpServer: settings.mcpServer,
  GitIdentity: settings.gitIdentity,
  Settings: settings.settings,
  RunnerAvailability: settings.runnerAvailability,
  SettingsCheck: settings.settingsCheck,
  ConnectionTest: settings.connectionTest,
  McpHealth: settings.mcpHealth,
  TaskImageInfo: tasks.taskImageInfo,
  InitStep: tasks.initStep,
  InitProgress: tasks.initProgress,
  Workspace: tasks.workspace,
  SubmitResult: tasks.submitResult,
  ReviewFinding: tasks.reviewFinding,
  TaskReview: tasks.taskReview,
  MergeRequestCheck: tasks.mergeRequestCheck,
  MergeRequestComment: tasks.mergeRequestComment,
  MergeRequestStatus: tasks.mergeRequestStatus,
  FollowedMergeRequest: tasks.followedMergeRequest,
  TaskMergeRequests: tasks.taskMergeRequests,
  TodoOrigin: tasks.todoOrigin,
  CheckResult: tasks.checkResult,
  ChecksBaseline: tasks.checksBaseline,
  CheckRun: tasks.checkRun,
  Todo: tasks.todo,
  PrdLinkError: tasks.prdLinkError,
  TaskSessionSummary: tasks.taskSessionSummary,
  TaskTodo: tasks.taskTodo,
  Task: tasks.task,
  TaskList: tasks.taskList,
  TodoList: tasks.todoList,
  PlanVersion: tasks.planVersion,
  PlanDiff: tasks.planDiff,
  Flow: tasks.flow,
};

// `SettingsUpdate` and `SkillCreate` are named by the service, which adds checks of its own to them.
const bodies = {
  ProjectCreate: projectRequests.projectCreateSchema,
  ProjectUpdate: projectRequests.projectUpdateSchema,
  ProjectInit: projectRequests.projectInitSchema,
  TaskCreate: taskRequests.taskCreateSchema,
  TaskUpdate: taskRequests.taskUpdateSchema,
  MessageRequest: taskRequests.messageBody,
  SubmitRequest: taskRequests.submitBody,
  PlanRequest: taskRequests.planBody,
  TodoRequest: taskRequests.todoCreateBody,
  TodoPatch: taskRequests.todoUpdateBody,
  TodoOrder: taskRequests.todoOrderBody,
  FollowUpRequest: taskRequests.followUpBody,
  CommitMessageEdit: taskRequests.commitMessageBody,
  PreviewStart: previews.previewStartSchema,
  SessionMessage: requests.sessionMessageBody,
  ConversationCreate: requests.conversationCreateBody,
  ConversationUpdate: requests.conversationUpdateBody,
  SkillUpdate: requests.skillUpdateBody,
  SkillLink: requests.skillLinkBody,
  ConnectionTestRequest: settingsRequests.connectionTestBody,
};

for (const [id, schema] of Object.entries({ ...records, ...bodies })) workbenchComponents.add(schema, { id });
