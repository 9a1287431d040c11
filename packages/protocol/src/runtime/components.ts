import { z } from 'zod';
import * as agents from './agents.ts';
import { deleted, errorBody, errorObject, health, usage } from './common.ts';
import * as events from './events.ts';
import * as requests from './other-requests.ts';
import * as projects from './projects.ts';
import * as records from './records.ts';
import * as projectRequests from './requests.ts';
import * as runs from './runs.ts';
import * as server from './server.ts';
import * as sessions from './sessions.ts';

/**
 * The names keel-web's OpenAPI document gives its records and request bodies (`components.schemas`): a
 * route's schema found here is a `$ref` there, and a client generated from the document gets a type of that
 * name, the name of this package's TypeScript type. A request body's parts are not named: the body reads
 * whole where it is used.
 */
export const runtimeComponents = z.registry<{ id: string }>();

const answers = {
  ErrorBody: errorBody,
  ErrorObject: errorObject,
  Usage: usage,
  Deleted: deleted,
  SubAgent: agents.subAgent,
  AgentSpawned: agents.agentSpawned,
  AgentKilled: agents.agentKilled,
  ToolTrace: events.toolTrace,
  RunMetadata: events.runMetadata,
  RunEvent: events.runEvent,
  Project: projects.project,
  Task: projects.task,
  ProjectPage: projects.projectPage,
  TaskPage: projects.taskPage,
  ProjectInit: projects.projectInit,
  Directory: projects.directory,
  Approval: records.approval,
  ApprovalList: records.approvalList,
  ApprovalDecided: records.approvalDecided,
  Artifact: records.artifact,
  ArtifactWithContent: records.artifactWithContent,
  ArtifactList: records.artifactList,
  TimelineEntry: records.timelineEntry,
  Timeline: records.timeline,
  AuditEntry: records.auditEntry,
  AuditPage: records.auditPage,
  RunAgent: runs.runAgent,
  RunRecord: runs.runRecord,
  Run: runs.run,
  Step: runs.step,
  RunDetail: runs.runDetail,
  RunPage: runs.runPage,
  CheckpointSummary: runs.checkpointSummary,
  Checkpoint: runs.checkpoint,
  CheckpointList: runs.checkpointList,
  RunMetrics: runs.runMetrics,
  UserInput: runs.userInput,
  RunResult: runs.runResult,
  ToolCallResult: runs.toolCallResult,
  Skill: server.skill,
  SkillDetail: server.skillDetail,
  SkillWarning: server.skillWarning,
  SkillList: server.skillList,
  ServerMetrics: server.serverMetrics,
  EffectiveConfig: server.effectiveConfig,
  SandboxStatus: server.sandboxStatus,
  IgnoredConfigKey: server.ignoredConfigKey,
  ConfigStatus: server.configStatus,
  ToolInfo: server.toolInfo,
  ServerInfo: server.serverInfo,
  Health: health,
  Session: sessions.session,
  ImagePayload: sessions.imagePayload,
  SessionMessage: sessions.sessionMessage,
  SessionDetail: sessions.sessionDetail,
  SessionList: sessions.sessionList,
};

const bodies = {
  RunCallBody: requests.runCallBody,
  StartRunBody: requests.startRunBody,
  RunInputBody: requests.runInputBody,
  ForkBody: requests.forkBody,
  ApprovalDecisionBody: requests.approvalDecisionBody,
  ApprovalAnswerBody: requests.approvalAnswerBody,
  SpawnRequest: requests.spawnRequest,
  ToolCallBody: requests.toolCallBody,
  ConfigUpdate: requests.configUpdate,
  NewProject: projectRequests.newProject,
  ProjectUpdate: projectRequests.projectUpdate,
  NewTask: projectRequests.newTask,
  TaskUpdate: projectRequests.taskUpdate,
};

for (const [id, schema] of Object.entries({ ...answers, ...bodies })) runtimeComponents.add(schema, { id });
