import type { Workspace } from '@keel/protocol/workbench';
import { redactCredentials } from '../git/index.ts';
import { defaultRepairTurns, type Project } from './records/project.ts';
import type { SessionContext, StoredSession } from './records/session.ts';
import type { Task, TaskImage, TaskImageInfo, TaskPatch, TaskState, Todo } from './records/task.ts';

// Rows to records, shared by every dialect (SQLite in sqlite/, PostgreSQL in @keel/store-postgres) so that
// they answer field for field alike. Pure functions over a row whose JSON columns are values already:
// SQLite keeps them as text (`decodeJson` first), PostgreSQL's driver parses its json columns itself.

/** A row as a driver answers it: column name → value. */
export type StoreRow = Record<string, unknown>;

/** The JSON columns of each table (written as JSON text, read back as values). */
export const projectJsonColumns: ReadonlySet<string> = new Set(['repositories']);
export const sessionJsonColumns: ReadonlySet<string> = new Set(['context', 'error', 'usage']);
/** Of tasks and todos (a patch of either goes through the same list). */
export const taskJsonColumns: ReadonlySet<string> = new Set([
  'prd_link_errors',
  'prd_links',
  'images',
  'image_info',
  'init',
  'workspaces',
  'results',
  'before',
  'after',
  'checks',
  'check_runs',
  'review',
  'merge_requests',
  'origin',
  'baseline',
]);

/** The row with its JSON text columns parsed (NULL stays null), for a dialect that stores JSON as text. */
export function decodeJson(row: StoreRow, columns: ReadonlySet<string>): StoreRow {
  const decoded: StoreRow = { ...row };
  for (const name of columns) {
    if (typeof decoded[name] === 'string') decoded[name] = JSON.parse(decoded[name] as string);
  }
  return decoded;
}

/** A flag column: 1/0 on SQLite, true/false on PostgreSQL (Number(true) is 1). */
function flag(value: unknown): boolean {
  return Number(value ?? 0) === 1;
}

function text(value: unknown): string | null {
  return (value as string | null | undefined) ?? null;
}

export function projectFromRow(row: StoreRow): Project {
  return {
    id: row.id as string,
    name: row.name as string,
    description: row.description as string,
    repositories: (row.repositories as Project['repositories'] | null) ?? [],
    default_runner: text(row.default_runner),
    trust_repository_config: flag(row.trust_repository_config),
    repair_turns: Number(row.repair_turns ?? defaultRepairTurns),
    run_setup: flag(row.run_setup),
    review_runner: text(row.review_runner),
    status: row.status as Project['status'],
    error: text(row.error),
    created_at: row.created_at as string,
    updated_at: row.updated_at as string,
  };
}

export function sessionFromRow(row: StoreRow): StoredSession {
  return {
    id: row.id as string,
    kind: row.kind as StoredSession['kind'],
    owner_id: text(row.owner_id),
    status: row.status as StoredSession['status'],
    runner: (row.runner as StoredSession['runner']) ?? null,
    runner_config_id: row.runner_config_id as string,
    runner_session_id: text(row.runner_session_id),
    run_id: text(row.run_id),
    context: (row.context as SessionContext | null) ?? { workdir: '', skillDirs: [] },
    error: (row.error as StoredSession['error']) ?? null,
    usage: (row.usage as StoredSession['usage']) ?? null,
    // A bigint column comes back as a string from some drivers.
    last_seq: Number(row.last_seq),
    created_at: row.created_at as string,
    updated_at: row.updated_at as string,
    ended_at: text(row.ended_at),
  };
}

/** A task's sessions by stage key, as the (task, stage) → session relation holds them. */
export type StageSessions = ReadonlyMap<string, string>;
export const noSessions: StageSessions = new Map();

export function taskFromRow(row: StoreRow, sessions: StageSessions): Task {
  return { ...listedTaskFromRow(row, sessions), images: (row.images as TaskImage[] | null) ?? [] };
}

/** A task but its images (which a list reads as their sizes, `image_info`). */
export function listedTaskFromRow(row: StoreRow, sessions: StageSessions): Omit<Task, 'images'> {
  return {
    id: row.id as string,
    project_id: row.project_id as string,
    description: row.description as string,
    prd_links: (row.prd_links as string[] | null) ?? [],
    runner: text(row.runner),
    branch: row.branch as string,
    state: row.state as TaskState,
    cancelled_from: (row.cancelled_from as TaskState | null) ?? null,
    init: (row.init as Task['init'] | null) ?? { status: 'idle', steps: [] },
    // Rows written before remote URLs were redacted may still hold credentials: never returned.
    workspaces: ((row.workspaces as Workspace[] | null) ?? []).map((workspace) => ({
      ...workspace,
      origin_url: workspace.origin_url ? redactCredentials(workspace.origin_url) : null,
    })),
    // The spec's fields, read from the (task, stage) → session relation.
    plan_session_id: sessions.get('plan') ?? null,
    review_session_id: sessions.get('review') ?? null,
    init_session_id: sessions.get('init') ?? null,
    commit_message: text(row.commit_message),
    mr_title: text(row.mr_title),
    mr_description: text(row.mr_description),
    results: (row.results as Task['results']) ?? null,
    prd_link_errors: (row.prd_link_errors as Task['prd_link_errors'] | null) ?? [],
    review: (row.review as Task['review']) ?? null,
    merge_requests: (row.merge_requests as Task['merge_requests']) ?? null,
    baseline: (row.baseline as Task['baseline']) ?? null,
    error: text(row.error),
    created_at: row.created_at as string,
    updated_at: row.updated_at as string,
  };
}

export function todoFromRow(row: StoreRow): Todo {
  return {
    id: row.id as string,
    task_id: row.task_id as string,
    position: Number(row.position),
    title: row.title as string,
    description: row.description as string,
    expected_output: row.expected_output as string,
    status: row.status as Todo['status'],
    session_id: text(row.session_id),
    before: (row.before as Todo['before']) ?? null,
    after: (row.after as Todo['after']) ?? null,
    checks: withOutcomes((row.checks as Todo['checks']) ?? null),
    check_runs: ((row.check_runs as Todo['check_runs'] | null) ?? []).map((run) => ({
      ...run,
      results: withOutcomes(run.results) ?? [],
    })),
    origin: (row.origin as Todo['origin'] | null) ?? { kind: 'plan' },
    error: text(row.error),
    error_code: (row.error_code as Todo['error_code'] | null) ?? null,
    created_at: row.created_at as string,
    updated_at: row.updated_at as string,
  };
}

/** Check results stored before they had an outcome: passed or failed, as they said. */
function withOutcomes(checks: Todo['checks']): Todo['checks'] {
  return (
    checks?.map((check) => ({
      ...check,
      outcome: check.outcome ?? (check.passed ? 'passed' : 'failed'),
      reason: check.reason ?? null,
    })) ?? null
  );
}

/** What lists and views show of a task's images, kept beside them so that a list never reads the images. */
export function imageInfoOf(images: TaskImage[]): TaskImageInfo[] {
  return images.map((image) => ({
    media_type: image.media_type,
    ...(image.filename ? { filename: image.filename } : {}),
    bytes: Buffer.byteLength(image.data, 'base64'),
  }));
}

/** A task or todo patch with the sizes of its new images beside them (`image_info`). */
export function withImageInfo(patch: Record<string, unknown>): Record<string, unknown> {
  const images = patch.images as TaskImage[] | undefined;
  return images ? { ...patch, image_info: imageInfoOf(images) } : patch;
}

/**
 * Crash repair of one task: its init steps and baseline left running fail (a retry restores the
 * before-snapshot; the next todo takes the baseline again). Undefined when nothing of it was running.
 */
export function interruptedTaskPatch(task: Task, endedAt: string): TaskPatch | undefined {
  const fields: TaskPatch = {};
  if (task.init.status === 'running' || task.init.steps.some((step) => step.status === 'running')) {
    const steps = task.init.steps.map((step) =>
      step.status === 'running' || step.status === 'pending'
        ? { ...step, status: 'failed' as const, error: 'interrupted' }
        : step,
    );
    fields.init = { status: 'failed', steps };
  }
  if (task.baseline?.status === 'running') {
    fields.baseline = {
      ...task.baseline,
      status: 'failed',
      error: `interrupted: the workbench stopped; take it again with POST /api/tasks/${task.id}/baseline (executing a todo takes it too)`,
      ended_at: endedAt,
    };
  }
  return Object.keys(fields).length > 0 ? fields : undefined;
}

/** The messages crash repair writes (one wording for every dialect). */
export const interrupted = {
  todo: 'interrupted: the workbench stopped; execute it again',
  knowledge: 'interrupted: the workbench stopped; retry this layer',
  project: 'knowledge generation was interrupted',
} as const;
