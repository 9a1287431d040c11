import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WorkbenchError } from '../errors.ts';
import type { KnowledgeService } from '../projects/index.ts';
import { resolveRunner } from '../runners/index.ts';
import { type SessionRunner, type Sessions, stopReasons } from '../sessions/index.ts';
import type { SettingsService } from '../settings/index.ts';
import type { WorkbenchStore } from '../store/index.ts';
import type { Conversation } from './types.ts';

export type { Conversation } from './types.ts';

export interface ConversationDeps {
  store: Pick<WorkbenchStore, 'conversations' | 'projects'>;
  knowledge: KnowledgeService;
  settings: SettingsService;
  runner: SessionRunner;
  sessions: Sessions;
  /** Where a conversation without a project works. */
  home: string;
}

/** Free conversations (about a project or not): a row, and once initialized a session to chat in. */
export class ConversationService {
  readonly #deps: ConversationDeps;

  constructor(deps: ConversationDeps) {
    this.#deps = deps;
  }

  async list(projectId?: string): Promise<Conversation[]> {
    return this.#deps.store.conversations.list(projectId);
  }

  async get(id: string): Promise<Conversation> {
    return this.#deps.store.conversations.get(id);
  }

  async create(input: { title: string; project_id?: string | null | undefined }): Promise<Conversation> {
    if (input.project_id) await this.#deps.store.projects.get(input.project_id);
    return this.#deps.store.conversations.create({
      title: input.title,
      project_id: input.project_id ?? null,
    });
  }

  async update(id: string, patch: { title?: string | undefined }): Promise<Conversation> {
    return this.#deps.store.conversations.update(id, patch.title !== undefined ? { title: patch.title } : {});
  }

  async remove(id: string): Promise<void> {
    const conversation = await this.get(id);
    if (conversation.session_id) {
      this.#deps.runner.dropQueue(conversation.session_id);
      this.#deps.runner.cancel(conversation.session_id, stopReasons.deleted);
    }
    await this.#deps.store.conversations.remove(id);
  }

  /**
   * Opens the conversation's session (a new one each time: a fresh context) with the project's knowledge as
   * standing instructions. Chat then goes over the WebSocket (`{type: 'chat', session_id, content}`).
   */
  async init(id: string) {
    const { store, knowledge, settings, runner } = this.#deps;
    const conversation = await this.get(id);
    if (conversation.session_id && runner.isRunning(conversation.session_id)) {
      throw new WorkbenchError(
        'SESSION_BUSY',
        'The conversation is answering: wait for it, then init again.',
      );
    }
    const project = conversation.project_id ? await store.projects.get(conversation.project_id) : null;
    const stored = await settings.stored();
    const { config } = resolveRunner(
      { project: project?.default_runner, global: stored.default_runner },
      await settings.runnerConfigs(),
    );
    await settings.model(config);
    let instructions =
      'You are a helpful engineer in a local coding workbench. Answer questions; do not change files unless asked.';
    let workdir = join(this.#deps.home, 'conversations', id);
    let allowedRoots: string[] = [];
    if (project) {
      const { projectMd, constitutionMd } = knowledge.documents(project.id);
      const known = [projectMd, constitutionMd].filter(existsSync).map((path) => readFileSync(path, 'utf8'));
      instructions = [
        instructions,
        `The conversation is about the project "${project.name}".`,
        ...known,
      ].join('\n\n');
      workdir = project.repositories[0]?.path ?? workdir;
      allowedRoots = project.repositories.slice(1).map((repository) => repository.path);
    }
    mkdirSync(workdir, { recursive: true });
    const session = await runner.create('conversation', id, config.id, {
      workdir,
      instructions,
      skillDirs: [],
      ...(allowedRoots.length ? { allowedRoots } : {}),
    });
    const updated = await store.conversations.update(id, { session_id: session.id });
    return { conversation: updated, session };
  }
}
