import type { FastifyInstance } from 'fastify';
import { conversationRoutes } from './conversations/index.ts';
import { directoryRoutes } from './directories/index.ts';
import type { SocketAuthorizer } from './http/index.ts';
import { previewRoutes } from './previews/index.ts';
import { projectRoutes, projectSnapshot } from './projects/index.ts';
import { type Services, taskSnapshot } from './services.ts';
import { registerWebSocket, sessionRoutes } from './sessions/index.ts';
import { settingsRoutes } from './settings/index.ts';
import { skillRoutes } from './skills/index.ts';
import { editRoutes, flowRoutes, taskRoutes } from './tasks/index.ts';

/** The tags of the API's operations, in the order the OpenAPI document lists them, with what each groups. */
export const apiTags = [
  {
    name: 'settings',
    description: 'The model, the runners, the MCP servers and the tokens; whether AI actions can run.',
  },
  {
    name: 'projects',
    description: "Projects, their repositories and knowledge; this machine's directories to pick them.",
  },
  { name: 'tasks', description: 'Tasks: create, read, change, cancel, reopen, delete.' },
  {
    name: 'flow',
    description: "The five-stage flow: each stage's actions (work that takes time answers 202 at once).",
  },
  { name: 'edits', description: "The user's own edits: the plan, the todo list, the commit message." },
  { name: 'previews', description: "A repository's run/dev command started from a task's workspace." },
  { name: 'sessions', description: 'The AI sessions behind the work: status, log, chat, stop.' },
  { name: 'skills', description: 'Skills, and linking them to projects.' },
  { name: 'conversations', description: "Free conversations, with a project's knowledge as context." },
  { name: 'health', description: 'Whether the service is up; open without the key.' },
];

/** Every route of the API, in the order of the spec's endpoint table. */
export async function registerRoutes(
  app: FastifyInstance,
  services: Services,
  authorized: SocketAuthorizer,
): Promise<void> {
  await app.register(settingsRoutes(services.settings, services.registry));
  await app.register(projectRoutes(services.projects, services.knowledge));
  await app.register(taskRoutes(services.tasks));
  // GET /api/flow, then each registered stage's endpoints in order.
  await app.register(flowRoutes(services.tasks));
  await app.register(editRoutes(services.tasks));
  await app.register(previewRoutes(services.previews));
  await app.register(sessionRoutes(services.sessions, services.log, services.runner));
  await app.register(async (scope) =>
    registerWebSocket(scope, {
      hub: services.hub,
      log: services.log,
      store: services.sessions,
      runner: services.runner,
      authorized,
      task: async (taskId) => taskSnapshot(await services.tasks.store.get(taskId)),
      project: (projectId) => projectSnapshot(services.store.projects, projectId),
    }),
  );
  await app.register(skillRoutes(services.skills));
  await app.register(conversationRoutes(services.conversations));
  await app.register(directoryRoutes());
}
