import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { newId } from '@keel/runtime/store';
import { WorkbenchError } from '../errors.ts';
import type { KnowledgeService, ProjectStore } from '../projects/index.ts';
import { resolveRunner } from '../runners/index.ts';
import { type SessionRunner, type SessionStore, stopReasons } from '../sessions/index.ts';
import type { SettingsService } from '../settings/index.ts';
import { type Database, nowIso } from '../store/index.ts';

export interface Conversation {
  id: string;
  title: string;
  project_id: string | null;
  session_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface ConversationDeps {
  db: Database;
  projects: ProjectStore;
  knowledge: KnowledgeService;
  settings: SettingsService;
  runner: SessionRunner;
  sessions: SessionStore;
  /** Where a conversation without a project works. */
  home: string;
}

/** Free conversations (about a project or not): a row, and once initialized a session to chat in. */
export class ConversationService {
  readonly #deps: ConversationDeps;

  constructor(deps: ConversationDeps) {
    this.#deps = deps;
  }

  list(projectId?: string): Conversation[] {
    const { db } = this.#deps;
    return (projectId
      ? db.prepare('SELECT * FROM conversations WHERE project_id = ? ORDER BY created_at, id').all(projectId)
      : db.prepare('SELECT * FROM conversations ORDER BY created_at, id').all()) as unknown as Conversation[];
  }

  get(id: string): Conversation {
    const row = this.#deps.db.prepare('SELECT * FROM conversations WHERE id = ?').get(id) as
      | Conversation
      | undefined;
    if (!row)
      throw new WorkbenchError('CONVERSATION_NOT_FOUND', `No conversation '${id}'.`, {
        conversation_id: id,
      });
    return row;
  }

  create(input: { title: string; project_id?: string | null | undefined }): Conversation {
    if (input.project_id) this.#deps.projects.get(input.project_id);
    const id = newId('conv');
    const now = nowIso();
    this.#deps.db
      .prepare(
        'INSERT INTO conversations (id, title, project_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
      )
      .run(id, input.title, input.project_id ?? null, now, now);
    return this.get(id);
  }

  update(id: string, patch: { title?: string | undefined }): Conversation {
    this.get(id);
    if (patch.title !== undefined) {
      this.#deps.db
        .prepare('UPDATE conversations SET title = ?, updated_at = ? WHERE id = ?')
        .run(patch.title, nowIso(), id);
    }
    return this.get(id);
  }

  remove(id: string): void {
    const conversation = this.get(id);
    if (conversation.session_id) {
      this.#deps.runner.dropQueue(conversation.session_id);
      this.#deps.runner.cancel(conversation.session_id, stopReasons.deleted);
    }
    this.#deps.db.prepare('DELETE FROM conversations WHERE id = ?').run(id);
  }

  /**
   * Opens the conversation's session (a new one each time: a fresh context) with the project's knowledge as
   * standing instructions. Chat then goes over the WebSocket (`{type: 'chat', session_id, content}`).
   */
  init(id: string) {
    const { projects, knowledge, settings, runner } = this.#deps;
    const conversation = this.get(id);
    if (conversation.session_id && runner.isRunning(conversation.session_id)) {
      throw new WorkbenchError(
        'SESSION_BUSY',
        'The conversation is answering: wait for it, then init again.',
      );
    }
    const project = conversation.project_id ? projects.get(conversation.project_id) : null;
    const { config } = resolveRunner(
      { project: project?.default_runner, global: settings.stored().default_runner },
      settings.runnerConfigs(),
    );
    settings.model(config);
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
    const session = runner.create('conversation', id, config.id, {
      workdir,
      instructions,
      skillDirs: [],
      ...(allowedRoots.length ? { allowedRoots } : {}),
    });
    this.#deps.db
      .prepare('UPDATE conversations SET session_id = ?, updated_at = ? WHERE id = ?')
      .run(session.id, nowIso(), id);
    return { conversation: this.get(id), session };
  }
}
