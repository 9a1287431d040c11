import { redactCredentials } from '../../git/index.ts';
import type { Workspace } from '../../tasks/index.ts';
import { fromJson, nowIso } from '../database.ts';
import type { Task, TaskImage, TaskImageInfo, TaskState, Todo } from '../records/task.ts';
import type { Row } from './database.ts';

// Rows of tasks and todos to records and back.

const jsonColumns = new Set([
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

/** A task's sessions by stage key, as `task_sessions` holds them. */
export type StageSessions = ReadonlyMap<string, string>;
export const noSessions: StageSessions = new Map();

export function toTask(row: Row, sessions: StageSessions): Task {
  return { ...toListedTask(row, sessions), images: fromJson(row.images, []) };
}

export function toListedTask(row: Row, sessions: StageSessions): Omit<Task, 'images'> {
  return {
    id: row.id as string,
    project_id: row.project_id as string,
    description: row.description as string,
    prd_links: fromJson(row.prd_links, []),
    runner: (row.runner as string | null) ?? null,
    branch: row.branch as string,
    state: row.state as TaskState,
    cancelled_from: (row.cancelled_from as TaskState | null) ?? null,
    init: fromJson(row.init, { status: 'idle', steps: [] }),
    // Rows written before remote URLs were redacted may still hold credentials: never returned.
    workspaces: fromJson<Workspace[]>(row.workspaces, []).map((workspace) => ({
      ...workspace,
      origin_url: workspace.origin_url ? redactCredentials(workspace.origin_url) : null,
    })),
    // The spec's fields, read from the (task, stage) → session relation (the old columns are not read).
    plan_session_id: sessions.get('plan') ?? null,
    review_session_id: sessions.get('review') ?? null,
    init_session_id: sessions.get('init') ?? null,
    commit_message: (row.commit_message as string | null) ?? null,
    mr_title: (row.mr_title as string | null) ?? null,
    mr_description: (row.mr_description as string | null) ?? null,
    results: fromJson(row.results, null),
    prd_link_errors: fromJson(row.prd_link_errors, []),
    review: fromJson(row.review, null),
    merge_requests: fromJson(row.merge_requests, null),
    baseline: fromJson(row.baseline, null),
    error: (row.error as string | null) ?? null,
    created_at: row.created_at as string,
    updated_at: row.updated_at as string,
  };
}

export function toTodo(row: Row): Todo {
  return {
    id: row.id as string,
    task_id: row.task_id as string,
    position: Number(row.position),
    title: row.title as string,
    description: row.description as string,
    expected_output: row.expected_output as string,
    status: row.status as Todo['status'],
    session_id: (row.session_id as string | null) ?? null,
    before: fromJson(row.before, null),
    after: fromJson(row.after, null),
    checks: withOutcomes(fromJson(row.checks, null)),
    check_runs: fromJson<Todo['check_runs']>(row.check_runs, []).map((run) => ({
      ...run,
      results: withOutcomes(run.results) ?? [],
    })),
    origin: fromJson(row.origin, { kind: 'plan' }),
    error: (row.error as string | null) ?? null,
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

/** An UPDATE's SET list for `patch` (JSON columns as JSON, images with their sizes) and updated_at. */
export function assignments(patch: Record<string, unknown>): {
  sql: string;
  values: (string | number | null)[];
} {
  const columns: string[] = [];
  const values: (string | number | null)[] = [];
  const images = patch.images as TaskImage[] | undefined;
  const withInfo = images ? { ...patch, image_info: imageInfoOf(images) } : patch;
  for (const [key, value] of Object.entries(withInfo)) {
    if (value === undefined) continue;
    columns.push(`${key} = ?`);
    values.push(
      jsonColumns.has(key) && value !== null ? JSON.stringify(value) : (value as string | number | null),
    );
  }
  columns.push('updated_at = ?');
  values.push(nowIso());
  return { sql: columns.join(', '), values };
}
