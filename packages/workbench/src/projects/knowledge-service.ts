import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Background } from '../background.ts';
import { checkSettingsOf } from '../checks/index.ts';
import { WorkbenchError } from '../errors.ts';
import { resolveRunner } from '../runners/index.ts';
import type { SessionRunner } from '../sessions/index.ts';
import type { SettingsService } from '../settings/index.ts';
import type { ProjectRecords } from '../store/index.ts';
import { constitutionMarkdown, projectMarkdown, type RepositoryKnowledge } from './knowledge-docs.ts';
import { layerPrompt, layerRequestShown } from './layer-prompts.ts';
import { RepositoryScans } from './repository-scans.ts';
import { scanFacts } from './scan-facts.ts';
import {
  type KnowledgeLayer,
  type KnowledgeRecord,
  knowledgeLayers,
  type Project,
  type Repository,
} from './types.ts';

export interface KnowledgeDeps {
  store: ProjectRecords;
  runner: SessionRunner;
  settings: SettingsService;
  background: Background;
  knowledgeDir: (projectId: string) => string;
}

/**
 * Project knowledge: four layers per repository, generated concurrently, each in its own session and with
 * its own record (pending, running, done, failed). The project is READY when every layer is done, FAILED
 * when one failed; one layer can be retried alone. Contents live under `projects/{id}/knowledge/`.
 */
export class KnowledgeService {
  readonly #deps: KnowledgeDeps;

  constructor(deps: KnowledgeDeps) {
    this.#deps = deps;
  }

  /** Runs once a project turned READY (the services start the initialization of its waiting tasks). */
  onReady: (projectId: string) => Promise<void> = async () => {};

  /**
   * The automatic generation of a new project (or of new repositories): `start` for every layer. When it
   * cannot start (no model configured, ...) the project stays CREATED with the reason and the retry in
   * its `error`; `POST /api/projects/{id}/init` starts it by hand.
   */
  async startAutomatically(projectId: string): Promise<void> {
    try {
      await this.start(projectId);
    } catch (error) {
      const reason = (error as Error).message;
      await this.#deps.store.update(projectId, {
        error: `Knowledge generation did not start automatically: ${reason} Then start it with POST /api/projects/${projectId}/init.`,
      });
    }
  }

  /** Finds the checks of the project's repositories that have none recorded (not even an empty list). */
  async #findMissingChecks(projectId: string): Promise<void> {
    const project = await this.#deps.store.get(projectId);
    if (project.repositories.every((repository) => repository.checks !== undefined)) return;
    const repositories = await Promise.all(
      project.repositories.map(async (repository) =>
        repository.checks !== undefined
          ? repository
          : { ...repository, checks: await checkSettingsOf(repository.path) },
      ),
    );
    await this.#deps.store.update(projectId, { repositories });
  }

  /** Starts generation (every layer, or the one named) and answers at once with the records. */
  async start(
    projectId: string,
    only?: { repository: string; layer: KnowledgeLayer },
  ): Promise<KnowledgeRecord[]> {
    const { store, settings, runner } = this.#deps;
    const project = await store.get(projectId);
    if (project.status === 'INITIALIZING') {
      throw new WorkbenchError(
        'INVALID_STATE',
        `Project '${projectId}' is generating its knowledge already: wait for it to end.`,
        { state: project.status, allowed: [] },
      );
    }
    const { config } = resolveRunner(
      { project: project.default_runner, global: (await settings.stored()).default_runner },
      await settings.runnerConfigs(),
    );
    await settings.model(config);
    let targets: [Repository, KnowledgeLayer][];
    if (only) {
      const repository = project.repositories.find((each) => each.name === only.repository);
      if (!repository) {
        throw new WorkbenchError('REPOSITORY_NOT_FOUND', `Project has no repository '${only.repository}'.`, {
          repository: only.repository,
          available: project.repositories.map((each) => each.name),
        });
      }
      targets = [[repository, only.layer]];
    } else {
      await store.clearKnowledge(projectId);
      targets = project.repositories.flatMap((repository) =>
        knowledgeLayers.map((layer): [Repository, KnowledgeLayer] => [repository, layer]),
      );
    }
    // The scans start now, in the worker thread, while the sessions and records below are written.
    const scans = new RepositoryScans(targets.map(([repository]) => repository));
    const jobs: { repository: Repository; layer: KnowledgeLayer; sessionId: string }[] = [];
    for (const [repository, layer] of targets) {
      const session = await runner.create('knowledge', projectId, config.id, {
        workdir: repository.path,
        skillDirs: [],
        // The user's own repository, not a task copy: look, never touch.
        readOnly: true,
      });
      await store.setKnowledge(projectId, repository.name, layer, {
        status: 'pending',
        error: null,
        session_id: session.id,
      });
      jobs.push({ repository, layer, sessionId: session.id });
    }
    await store.update(projectId, { status: 'INITIALIZING', error: null });
    this.#deps.background.run(async () => {
      // A project from before checks existed gets its repositories' checks found now (edited ones stay).
      if (!only) await this.#findMissingChecks(projectId);
      await Promise.all(jobs.map((job) => this.#generate(project, job, scans)));
      await this.#finish(projectId, scans);
    });
    return await store.knowledge(projectId);
  }

  /** Every layer with its content, and the two documents built from them. */
  async read(projectId: string) {
    const project = await this.#deps.store.get(projectId);
    const dir = this.#deps.knowledgeDir(projectId);
    const layers = (await this.#deps.store.knowledge(projectId)).map((record) => ({
      ...record,
      content: readIfExists(join(dir, record.repository, `${record.layer}.md`)),
    }));
    return {
      project_id: project.id,
      status: project.status,
      layers,
      project_md: readIfExists(join(dir, 'project.md')),
      constitution_md: readIfExists(join(dir, 'constitution.md')),
    };
  }

  /** The paths of project.md and constitution.md (they exist once the project was READY). */
  documents(projectId: string): { projectMd: string; constitutionMd: string } {
    const dir = this.#deps.knowledgeDir(projectId);
    return { projectMd: join(dir, 'project.md'), constitutionMd: join(dir, 'constitution.md') };
  }

  async #generate(
    project: Project,
    job: { repository: Repository; layer: KnowledgeLayer; sessionId: string },
    scans: RepositoryScans,
  ): Promise<void> {
    const { store, runner } = this.#deps;
    const { repository, layer } = job;
    await store.setKnowledge(project.id, repository.name, layer, { status: 'running' });
    try {
      const scan = await scans.markdown(repository);
      const outcome = await runner.turn(job.sessionId, {
        prompt: layerPrompt(repository, layer, scan),
        shownAs: layerRequestShown(repository, layer),
      });
      if (outcome.status !== 'succeeded' || !outcome.output.trim()) {
        const reason =
          outcome.error?.message ??
          (outcome.status === 'succeeded' ? 'the answer was empty' : outcome.status);
        await store.setKnowledge(project.id, repository.name, layer, { status: 'failed', error: reason });
        return;
      }
      const dir = join(this.#deps.knowledgeDir(project.id), repository.name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${layer}.md`), `${outcome.output.trim()}\n`);
      await store.setKnowledge(project.id, repository.name, layer, { status: 'done', error: null });
    } catch (error) {
      await store.setKnowledge(project.id, repository.name, layer, {
        status: 'failed',
        error: (error as Error).message,
      });
    }
  }

  async #finish(projectId: string, scans: RepositoryScans): Promise<void> {
    const { store } = this.#deps;
    const project = await store.get(projectId);
    const records = await store.knowledge(projectId);
    const failed = records.filter((record) => record.status !== 'done');
    if (failed.length > 0) {
      const named = failed.map((record) => `${record.repository}/${record.layer}`).join(', ');
      await store.update(projectId, { status: 'FAILED', error: `knowledge layers failed: ${named}` });
      return;
    }
    const dir = this.#deps.knowledgeDir(projectId);
    const layers = new Map<string, RepositoryKnowledge>();
    for (const record of records) {
      const layerSet = layers.get(record.repository) ?? {};
      layerSet[record.layer] = readIfExists(join(dir, record.repository, `${record.layer}.md`)) ?? '';
      layers.set(record.repository, layerSet);
    }
    const facts = new Map<string, string[]>();
    for (const repository of project.repositories) {
      facts.set(repository.name, await scans.scan(repository).then(scanFacts, () => []));
    }
    writeFileSync(join(dir, 'project.md'), projectMarkdown(project, layers));
    writeFileSync(join(dir, 'constitution.md'), constitutionMarkdown(project, layers, facts));
    await store.update(projectId, { status: 'READY', error: null });
    await this.onReady(projectId);
  }
}

function readIfExists(path: string): string | null {
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}
