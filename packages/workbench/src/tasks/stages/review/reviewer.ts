import { join } from 'node:path';
import { newId } from '@keel/runtime/store';
import { WorkbenchError } from '../../../errors.ts';
import type { RunnerOutcome } from '../../../runners/index.ts';
import type { SessionRecord } from '../../../sessions/index.ts';
import { nowIso } from '../../../store/index.ts';
import { changeSummary } from '../../change-summary.ts';
import { createTaskSession, reserveSession, type TaskDeps, taskRunner } from '../../deps.ts';
import { reservedTurn, startAutomatically } from '../../stage-errors.ts';
import { readIfExists } from '../../task-files.ts';
import {
  type FindingSeverity,
  findingSeverities,
  type ReviewFinding,
  type Task,
  type TaskReview,
} from '../../types.ts';
import { reviewPrompt } from './prompts.ts';
import { commitMessageAutomatically } from './review-stage.ts';
import { taskDiff } from './task-diff.ts';

const maxPatchChars = 60_000;

/**
 * Stage 05 opens with a review: a reviewer agent (the project's `review_runner`, else the task's runner),
 * read-only, over the plan, the todos with their check results and the whole cross-repository diff. Its
 * findings go on the task; when it ends, the commit message is written from the same final diff.
 */
export async function startReview(deps: TaskDeps, taskId: string, afterwards?: () => void) {
  const task = await deps.store.check(taskId, 'review');
  const session = await reviewerSession(deps, task);
  const reservation = await reserveSession(deps, taskId, session.id, 'reviewing the change');
  // What the user dismissed in earlier rounds: told to the reviewer, and kept dismissed if it comes back.
  const dismissed = (task.review?.findings ?? []).filter((finding) => finding.status === 'dismissed');
  let prompt: string;
  try {
    const changes = await taskDiff(deps, taskId);
    const patch = changes.repositories.map((repo) => `# ${repo.repository}\n${repo.patch}`).join('\n');
    prompt = reviewPrompt({
      task,
      plan: readIfExists(join(deps.paths.taskDir(taskId), 'plan.md')),
      todos: await deps.store.todos(taskId),
      summary: changeSummary(changes.repositories),
      patch: patch.length > maxPatchChars ? `${patch.slice(0, maxPatchChars)}\n[… cut]` : patch,
      dismissed,
    });
  } catch (error) {
    reservation.release();
    throw error;
  }
  const round = (task.review?.round ?? 0) + 1;
  await setReview(deps, taskId, {
    status: 'running',
    round,
    session_id: session.id,
    findings: [],
    error: null,
  });
  const step = { what: 'The review', retry: `POST /api/tasks/${taskId}/review` };
  const finish = (outcome: RunnerOutcome) => reviewEnded(deps, taskId, round, outcome, dismissed);
  deps.background.run(async () => {
    try {
      await reservedTurn(deps, taskId, reservation, step, () => ({
        prompt,
        shownAs: `Review the change (round ${round}).`,
        finish,
      }));
    } catch (error) {
      if ((await deps.store.get(taskId)).review?.status === 'running') {
        await finish({
          status: 'failed',
          output: '',
          error: { code: 'REVIEW_FAILED', message: String(error) },
        });
      }
      throw error;
    } finally {
      afterwards?.();
    }
  });
  return { task: await deps.store.get(taskId), session: await deps.sessions.get(session.id) };
}

/** On entering review: the review by itself, then the commit message (each says on the task if it failed). */
export async function reviewAutomatically(deps: TaskDeps, taskId: string): Promise<void> {
  const writeMessage = async () => {
    try {
      if ((await deps.store.get(taskId)).state === 'REVIEWING')
        await commitMessageAutomatically(deps, taskId);
    } catch {}
  };
  await startAutomatically(
    deps,
    taskId,
    { what: 'The review', retry: `POST /api/tasks/${taskId}/review` },
    () =>
      startReview(deps, taskId, writeMessage).catch(async (error: unknown) => {
        // No review (no model for the reviewer, say): the commit message is still written.
        await writeMessage();
        throw error;
      }),
  );
}

/** The review turn's answer as findings, written before the session's end is broadcast. */
async function reviewEnded(
  deps: TaskDeps,
  taskId: string,
  round: number,
  outcome: RunnerOutcome,
  dismissed: readonly ReviewFinding[],
): Promise<void> {
  const parsed = outcome.status === 'succeeded' ? parseFindings(outcome.output) : undefined;
  await changeReview(deps, taskId, (current) => {
    // A review of another round (a newer one started) is not this turn's to end.
    if (!current || current.round !== round) return undefined;
    if (outcome.status !== 'succeeded') {
      const error =
        outcome.status === 'cancelled'
          ? 'The review was stopped.'
          : (outcome.error?.message ?? `The reviewer ${outcome.status}.`);
      return { ...current, status: 'failed', error };
    }
    if (typeof parsed === 'string') return { ...current, status: 'failed', error: parsed };
    return { ...current, status: 'done', findings: keepDismissed(parsed ?? [], dismissed), error: null };
  });
}

/**
 * The new round's findings, with those the user dismissed before still dismissed: a finding the reviewer
 * reports again (same repository and file, and the same words or the same line) stays dismissed, and the
 * earlier dismissed ones it did not report again stay listed (dismissed), so the next round is told them too.
 */
export function keepDismissed(
  findings: ReviewFinding[],
  dismissed: readonly ReviewFinding[],
): ReviewFinding[] {
  const words = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();
  const same = (a: ReviewFinding, b: ReviewFinding) =>
    a.repository === b.repository &&
    a.file === b.file &&
    (words(a.message) === words(b.message) || (a.line !== null && a.line === b.line));
  const matched = new Set<ReviewFinding>();
  const marked = findings.map((finding) => {
    const earlier = dismissed.find((each) => same(each, finding));
    if (!earlier) return finding;
    matched.add(earlier);
    return { ...finding, status: 'dismissed' as const };
  });
  return [...marked, ...dismissed.filter((each) => !matched.has(each))];
}

/** Marks one open finding dismissed (it stays listed, greyed, and is not offered as a follow-up). */
export async function dismissFinding(
  deps: TaskDeps,
  taskId: string,
  findingId: string,
): Promise<ReviewFinding> {
  const task = await deps.store.check(taskId, 'dismiss_finding');
  const dismissed: ReviewFinding = { ...findFinding(task, findingId), status: 'dismissed' };
  await changeFindings(deps, taskId, (each) => (each.id === findingId ? dismissed : each));
  return dismissed;
}

/** Rewrites each finding of the task's review (as it is when written) by `change`. */
export async function changeFindings(
  deps: TaskDeps,
  taskId: string,
  change: (finding: ReviewFinding) => ReviewFinding,
): Promise<Task> {
  return await changeReview(
    deps,
    taskId,
    (review) => review && { ...review, findings: review.findings.map(change) },
  );
}

/** The task's finding `findingId`, or 404 FINDING_NOT_FOUND. */
export function findFinding(task: Task, findingId: string): ReviewFinding {
  const finding = task.review?.findings.find((each) => each.id === findingId);
  if (!finding) {
    throw new WorkbenchError('FINDING_NOT_FOUND', `The task's review has no finding '${findingId}'.`, {
      task_id: task.id,
      finding_id: findingId,
    });
  }
  return finding;
}

export async function setReview(
  deps: TaskDeps,
  taskId: string,
  review: Omit<TaskReview, 'updated_at'>,
): Promise<void> {
  await changeReview(deps, taskId, () => review);
}

/**
 * Writes what `next` makes of the task's review as it is when written (nothing when it answers null or
 * undefined): the findings are one list, and a dismiss, a follow-up and a review's end must not undo
 * each other.
 */
export async function changeReview(
  deps: TaskDeps,
  taskId: string,
  next: (review: TaskReview | null) => Omit<TaskReview, 'updated_at'> | null | undefined,
): Promise<Task> {
  return await deps.store.change(taskId, (task) => {
    const review = next(task.review ?? null);
    return review ? { review: { ...review, updated_at: nowIso() } } : undefined;
  });
}

/**
 * The reviewer's answer as findings: a JSON array (in a ```json fence or bare) of
 * `{severity, repository, file, line, message}`; or, when it is not one, why in words.
 */
export function parseFindings(output: string): ReviewFinding[] | string {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)\n```/i.exec(output);
  const text = (fenced?.[1] ?? output).trim();
  const start = text.indexOf('[');
  const end = text.lastIndexOf(']');
  if (start < 0 || end < start) {
    return 'The reviewer did not answer with a findings list (a JSON array): run the review again.';
  }
  let items: unknown;
  try {
    items = JSON.parse(text.slice(start, end + 1));
  } catch (error) {
    return `The reviewer's findings list is not valid JSON (${(error as Error).message}): run the review again.`;
  }
  if (!Array.isArray(items)) return 'The reviewer did not answer with a findings list: run the review again.';
  const findings: ReviewFinding[] = [];
  for (const item of items.slice(0, 200)) {
    if (!item || typeof item !== 'object') continue;
    const fields = item as Record<string, unknown>;
    const message = typeof fields.message === 'string' ? fields.message.trim().slice(0, 4000) : '';
    if (!message) continue;
    const severity = String(fields.severity ?? '').toLowerCase();
    const line = Number(fields.line);
    findings.push({
      id: newId('finding'),
      severity: findingSeverities.includes(severity as FindingSeverity)
        ? (severity as FindingSeverity)
        : 'warning',
      repository: text255(fields.repository),
      file: text255(fields.file),
      line: Number.isInteger(line) && line > 0 ? line : null,
      message,
      status: 'open',
      todo_id: null,
    });
  }
  return findings;
}

function text255(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim().slice(0, 255) : null;
}

/** The task's reviewer session (one per task, kept across rounds so it remembers its earlier findings). */
async function reviewerSession(deps: TaskDeps, task: Task): Promise<SessionRecord> {
  const existing = task.review?.session_id ? await deps.sessions.find(task.review.session_id) : undefined;
  if (existing) return existing;
  const project = await deps.projects.get(task.project_id);
  const config = project.review_runner
    ? await deps.settings.runnerConfig(project.review_runner, 'review_runner')
    : await taskRunner(deps, task, project);
  // The reviewer looks; the todos change the code.
  return await createTaskSession(deps, task, 'reviewer', config, { readOnly: true });
}
