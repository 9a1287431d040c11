import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ServiceLog } from '@keel/service';
import { Background } from './background.ts';
import { runtimeCommandRunner } from './checks/index.ts';
import { readConfig, type WorkbenchConfig, type WorkbenchPaths, workbenchPaths } from './config.ts';
import { ConversationService } from './conversations/index.ts';
import { FailureLog } from './logging/index.ts';
import { prewarmOffLoop } from './off-loop/index.ts';
import type { WorkbenchOptions } from './options.ts';
import { PreviewService } from './previews/index.ts';
import { announcedProjects, KnowledgeService, ProjectService, RepositoryTrust } from './projects/index.ts';
import { builtinRunnerConfigs, createRunnerRegistry, type RunnerRegistry } from './runners/index.ts';
import {
  cleanUpLogs,
  failInterruptedSessions,
  Hub,
  projectChannel,
  type SessionKind,
  SessionLog,
  SessionRunner,
  Sessions,
  type TaskSnapshot,
  taskChannel,
} from './sessions/index.ts';
import { SettingsService } from './settings/index.ts';
import { runtimeSetupRunner } from './setup/index.ts';
import { SkillService } from './skills/index.ts';
import { openWorkbenchStore, storeFailure, type WorkbenchStore } from './store/index.ts';
import {
  buildFlow,
  defaultStages,
  deleteProjectTasks,
  type Flow,
  initWaitingTasks,
  MergeRequestFollower,
  removeOrphanTaskDirs,
  type StageModule,
  type Task,
  type TaskDeps,
  TaskLocks,
  Tasks,
} from './tasks/index.ts';

const day = 24 * 60 * 60 * 1000;

/** Everything the routes use, made once per workbench. */
export interface Services {
  config: WorkbenchConfig;
  paths: WorkbenchPaths;
  env: Record<string, string | undefined>;
  /** The store of every record (SQLite, PostgreSQL or an embedder's): what the services receive. */
  store: WorkbenchStore;
  registry: RunnerRegistry;
  settings: SettingsService;
  sessions: Sessions;
  log: SessionLog;
  hub: Hub;
  runner: SessionRunner;
  background: Background;
  /** The trust decision for a repository's `.runtime/config.json` (the projects' `trust_repository_config`). */
  trust: RepositoryTrust;
  projects: ProjectService;
  knowledge: KnowledgeService;
  skills: SkillService;
  tasks: TaskDeps;
  conversations: ConversationService;
  /** The tasks' previews (their repositories' dev servers): stopped on a task's delete and on close. */
  previews: PreviewService;
  /** The off-loop worker's start, crash repair and the first log clean-up, then the daily one. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function createServices(options: WorkbenchOptions): Promise<Services> {
  const env = options.env ?? process.env;
  const config = readConfig(options.home ? { ...env, WORKBENCH_HOME: options.home } : env);
  const paths = workbenchPaths(config.home);
  mkdirSync(paths.sessionsDir, { recursive: true });
  const store = await openWorkbenchStore(options.store, config.databaseUrl, paths.database);
  const runtimeDir = env.RUNTIME_HOME || join(homedir(), '.runtime');
  // A repository's .runtime/config.json applies its security-relevant keys only in a project that trusts it.
  const trust = new RepositoryTrust(
    {
      projects: () => store.projects.list(),
      taskOwners: async () => new Map((await store.tasks.list()).map((task) => [task.id, task.project_id])),
    },
    paths.home,
  );
  await trust.refresh();
  const trustProjectConfig = trust.trusts;
  const registry =
    options.runners ??
    createRunnerRegistry({
      // WORKBENCH_HOME holds secrets.json: hidden from commands even when it came by option, not env.
      keel: { env, trustProjectConfig, hiddenPaths: [config.home] },
      // The agents' environment names WORKBENCH_HOME even when it came by option: `keel acp` hides it.
      env: { ...env, WORKBENCH_HOME: config.home },
      homesDir: join(config.home, 'runner-homes'),
    });
  const settings = new SettingsService(store.settings, paths.secrets, builtinRunnerConfigs());
  const serviceLog = options.serviceLog;
  // Every write of a project, a task, a todo or a session passes it: failures are logged from there.
  const failures = serviceLog ? new FailureLog(serviceLog) : undefined;
  const sessions = new Sessions(store.sessions);
  if (failures) sessions.onChange = (session) => failures.session(session);
  const log = new SessionLog(paths.sessionLog);
  const hub = new Hub();
  const runner = new SessionRunner({ store: sessions, log, hub, settings, runners: registry });
  sessions.busy = (id) => runner.isRunning(id);
  const background = new Background((error) => {
    const message = (storeFailure(error) ?? (error as Error)).message;
    if (serviceLog) serviceLog.error('background work failed', { error: message });
    else process.emitWarning(`workbench background work failed: ${message}`);
  });
  // Every write of a project or its knowledge is told on `project:{id}` (pages follow it, no polling).
  const projectRecords = announcedProjects(store.projects, (project) => {
    failures?.project(project);
    hub.publish({ type: 'project', channel: projectChannel(project.id), project });
  });
  const projects = new ProjectService(projectRecords, settings, trust, {
    knowledgeDir: paths.knowledgeDir,
    home: paths.home,
    runtimeDir,
  });
  const knowledge = new KnowledgeService({
    store: projectRecords,
    runner,
    settings,
    background,
    knowledgeDir: paths.knowledgeDir,
  });
  const skills = new SkillService(store, paths.skillsDir);
  // The flow from the registered stages (the five of the spec unless `stages` says otherwise).
  const flow = buildFlow(options.stages ?? defaultStages);
  const taskStore = new Tasks(store.tasks, flow);
  taskStore.onChange = (task) => {
    failures?.task(task);
    hub.publish({ type: 'task', channel: taskChannel(task.id), task: taskSnapshot(task) });
  };
  if (failures) taskStore.onTodoChange = (todo) => failures.todo(todo);
  const mergeRequests = new MergeRequestFollower({
    store: taskStore,
    settings,
    ...(options.mergeRequestPollMs ? { intervalMs: options.mergeRequestPollMs } : {}),
  });
  const tasks: TaskDeps = {
    store: taskStore,
    projects: projectRecords,
    trust,
    knowledge,
    skills,
    settings,
    runner,
    sessions,
    background,
    paths,
    busy: new TaskLocks(),
    // Each repository's checks run as the agent's commands do: sandboxed, under the command policy.
    commands: runtimeCommandRunner({ env, runtimeDir, hiddenPaths: [config.home], trustProjectConfig }),
    // Setup as the checks, but with the network on and the package managers' caches (docs/security.md).
    setup: runtimeSetupRunner({
      runtimeDir,
      hiddenPaths: [config.home],
      trustProjectConfig,
      cacheDir: join(config.home, 'caches'),
    }),
    mergeRequests,
    flow,
  };
  // A project's delete stops and deletes its tasks first (their work ended, their directories gone).
  projects.beforeRemove = (projectId) => deleteProjectTasks(tasks, projectId);
  // A project that became READY: its tasks waiting in CREATED initialize themselves.
  knowledge.onReady = (projectId) => initWaitingTasks(tasks, projectId);
  registerTurnEnds(runner, flow, tasks);
  // Previews run sandboxed as checks do, but with the host's network (docs/security.md); a task's delete
  // stops them (before its workspaces go), and so does close.
  const previews = new PreviewService({
    tasks,
    hub,
    launch: { runtimeDir, hiddenPaths: [config.home], trustProjectConfig, env },
    ...(options.previewTimings ? { timings: options.previewTimings } : {}),
  });
  tasks.previews = previews;
  const conversations = new ConversationService({
    store,
    knowledge,
    settings,
    runner,
    sessions,
    home: paths.home,
  });
  let timer: NodeJS.Timeout | undefined;
  return {
    config,
    paths,
    env,
    store,
    registry,
    settings,
    sessions,
    log,
    hub,
    runner,
    background,
    trust,
    projects,
    knowledge,
    skills,
    tasks,
    conversations,
    previews,
    async start() {
      // The worker thread of scans and git runs starts now, beside the rest of the start, and loads its
      // modules: not when a project create's first scan waits for it (issue #44).
      prewarmOffLoop();
      const cleanUp = () => cleanUpLogs(sessions, log, config.logRetentionDays);
      await unlessStoreFault(serviceLog, 'crash repair at start-up', async () => {
        await failInterruptedSessions(sessions, log);
        await store.projects.failInterrupted();
        await taskStore.failInterrupted();
        await cleanUp();
        const all = await taskStore.list();
        failures?.knownTasks(all);
        mergeRequests.resume(all);
      });
      // What a delete cut short left behind goes, without holding up the start.
      background.run(async () => {
        await removeOrphanTaskDirs(tasks);
      });
      timer = setInterval(() => void unlessStoreFault(serviceLog, 'log clean-up', cleanUp), day);
      timer.unref();
    },
    async close() {
      if (timer) clearInterval(timer);
      mergeRequests.close();
      // First: a preview's processes never outlive the service.
      await previews.close();
      await runner.close();
      await background.idle();
      await store.close();
    },
  };
}

/**
 * The stages' turn-end handlers and chat framers, one per session kind: those of a kind run in registry
 * order (02 and 03 share the plan session; each looks at the task's state).
 */
function registerTurnEnds(runner: SessionRunner, flow: Flow, tasks: TaskDeps): void {
  const byKind = new Map<SessionKind, NonNullable<StageModule['turnEnded']>[]>();
  for (const stage of flow.modules) {
    if (!stage.turnEnded) continue;
    byKind.set(stage.turnEnded.kind, [...(byKind.get(stage.turnEnded.kind) ?? []), stage.turnEnded]);
  }
  for (const [kind, handlers] of byKind) {
    runner.onTurnEnd(kind, async (session, outcome) => {
      for (const handler of handlers) await handler.handle(tasks, session, outcome);
    });
  }
  const framers = new Map<SessionKind, NonNullable<StageModule['chatFramed']>[]>();
  for (const stage of flow.modules) {
    if (!stage.chatFramed) continue;
    framers.set(stage.chatFramed.kind, [...(framers.get(stage.chatFramed.kind) ?? []), stage.chatFramed]);
  }
  for (const [kind, each] of framers) {
    runner.onChat(kind, async (session, content) => {
      for (const framer of each) {
        const framed = await framer.frame(tasks, session, content);
        if (framed !== undefined) return framed;
      }
      return undefined;
    });
  }
}

/** What the WebSocket's `task:{id}` channel carries of a task. */
export function taskSnapshot(task: Task): TaskSnapshot {
  return {
    id: task.id,
    state: task.state,
    review: task.review,
    merge_requests: task.merge_requests,
    error: task.error,
    updated_at: task.updated_at,
  };
}

/**
 * Runs housekeeping that writes. On a read-only database or a full disk it is skipped with a warning
 * saying why, and the service starts anyway: reads still work, and the next start tries again.
 */
async function unlessStoreFault(
  serviceLog: ServiceLog | undefined,
  what: string,
  work: () => Promise<unknown>,
): Promise<void> {
  try {
    await work();
  } catch (error) {
    const fault = storeFailure(error);
    if (!fault) throw error;
    if (serviceLog) serviceLog.warn(`${what} skipped`, { error: fault.message });
    else process.emitWarning(`workbench ${what} skipped: ${fault.message}`);
  }
}
