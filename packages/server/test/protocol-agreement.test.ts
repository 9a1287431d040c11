import * as protocol from '@keel/protocol/runtime';
import type {
  Approval,
  Artifact,
  AuditEntry,
  Checkpoint,
  Project,
  Run,
  RunAgent,
  RunMetrics,
  RunResult,
  RunStatus,
  SandboxStatus,
  Session,
  SessionDetail,
  Skill,
  SkillDetail,
  SkillList,
  Step,
  SubAgent,
  SubAgentType,
  Task,
  Timeline,
  TimelineEntry,
  UserInput,
} from '@keel/runtime';
import { finishedStatuses, runStatuses } from '@keel/runtime';
import {
  newProjectSchema,
  newTaskSchema,
  projectUpdateSchema,
  taskUpdateSchema,
} from '@keel/runtime/internal';
import { errorObjectSchema } from '@keel/runtime/wire';
import * as wireNames from '@keel/runtime/wire/names';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { startServer } from './harness.ts';

// The runtime keeps its own zod definitions of its records (it keeps exactly three dependencies, so it
// cannot import @keel/protocol); keel-web answers through @keel/protocol/runtime. These checks prove the two
// say the same thing: the type-level ones fail `npm run typecheck`, the others here. What is written once
// (the run and spawn requests, the run statuses, the kinds of sub-agent, the run events: the runtime's
// `@keel/runtime/wire`, which the protocol re-exports; packages/protocol/test/runtime-wire.test.ts) is not
// checked here, but the store's own copy of the statuses, until the store takes them from the wire too, and
// the error object, which the protocol names for both services and puts in its `error` event.

/** True when every `From` is a `To` (the runtime's records fit what keel-web declares it sends). */
type Fits<From, To> = [From] extends [To] ? true : false;
/** True when both name the same fields (a field the protocol forgot would silently not be sent). */
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
type Agree<A, B> = Fits<A, B> extends true ? SameKeys<A, B> : false;
type Check<T extends true> = T;

type ApiRun = Run & { run_id: string };
export type RecordsAgree = [
  Check<Agree<Run, protocol.RunRecord>>,
  Check<Agree<ApiRun, protocol.Run>>,
  Check<Agree<RunAgent, protocol.RunAgent>>,
  Check<Agree<Step, protocol.Step>>,
  Check<Agree<Checkpoint, protocol.Checkpoint>>,
  Check<Agree<Approval, protocol.Approval>>,
  Check<Agree<Artifact, protocol.Artifact>>,
  Check<Agree<AuditEntry, protocol.AuditEntry>>,
  Check<Agree<UserInput, protocol.UserInput>>,
  Check<Agree<RunMetrics, protocol.RunMetrics>>,
  Check<Agree<RunResult, protocol.RunResult>>,
  Check<Agree<Timeline, protocol.Timeline>>,
  Check<Fits<TimelineEntry, protocol.TimelineEntry>>,
  Check<Fits<protocol.TimelineEntry['type'], TimelineEntry['type']>>,
  Check<Agree<Project, protocol.Project>>,
  Check<Agree<Task, protocol.Task>>,
  Check<Agree<Session, protocol.Session>>,
  Check<Agree<SessionDetail, protocol.SessionDetail>>,
  Check<Agree<SubAgent, protocol.SubAgent>>,
  Check<Agree<Skill, protocol.Skill>>,
  Check<Agree<SkillDetail, protocol.SkillDetail>>,
  Check<Agree<SkillList, protocol.SkillList>>,
  Check<Agree<SandboxStatus, protocol.SandboxStatus>>,
  // The store's copies of the wire's names.
  Check<Fits<RunStatus, wireNames.RunStatus>>,
  Check<Fits<wireNames.RunStatus, RunStatus>>,
  Check<Fits<SubAgentType, wireNames.SubAgentType>>,
  Check<Fits<wireNames.SubAgentType, SubAgentType>>,
];

describe("@keel/protocol/runtime agrees with the runtime's own definitions", () => {
  test("the project and task bodies are the runtime's own schemas, not copies", () => {
    expect(protocol.newProject).toBe(newProjectSchema);
    expect(protocol.projectUpdate).toBe(projectUpdateSchema);
    expect(protocol.newTask).toBe(newTaskSchema);
    expect(protocol.taskUpdate).toBe(taskUpdateSchema);
  });

  test("the store's run statuses are the wire's", () => {
    expect(runStatuses).toEqual(wireNames.runStatuses);
    expect(finishedStatuses).toEqual(wireNames.finishedStatuses);
  });

  test("the error object of the runtime's `error` event is the protocol's, descriptions included", () => {
    expect(z.toJSONSchema(protocol.errorObject)).toEqual(z.toJSONSchema(errorObjectSchema));
  });

  test("a real run's stream, detail, timeline and metrics parse against the protocol", async () => {
    await using s = await startServer([
      { toolCalls: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'hello\n' } }] },
      { text: 'Wrote out.txt.' },
    ]);
    const started = await s.api('POST', '/runtime/runs', { prompt: 'write a file', workdir: s.repo.path });
    expect(protocol.run.parse(started.body)).toEqual(started.body);
    // The event stream goes out as stored text, past any serializer: every event it sends must still parse.
    const stream = await (await fetch(`${s.base}/runtime/runs/${started.body.id}/events`)).text();
    const events = [...stream.matchAll(/^data: (.*)$/gm)].map((match) => JSON.parse(match[1] as string));
    expect(events.map((event) => event.type)).toContain('tool_result');
    expect(events.at(-1)?.type).toBe('done');
    for (const event of events) expect(protocol.runEvent.parse(event)).toEqual(event);
    for (const [path, schema] of [
      [`/runtime/runs/${started.body.id}`, protocol.runDetail],
      [`/runtime/runs/${started.body.id}/timeline`, protocol.timeline],
      [`/runtime/runs/${started.body.id}/metrics`, protocol.runMetrics],
      [`/runtime/runs/${started.body.id}/checkpoints`, protocol.checkpointList],
      ['/runtime/runs', protocol.runPage],
    ] as const) {
      const answer = await s.api('GET', path);
      expect(answer.status, path).toBe(200);
      // Serialised through the schema: parsing it again changes nothing (no field was dropped on the way).
      expect((schema as z.ZodType).parse(answer.body), path).toEqual(answer.body);
    }
  });
});
