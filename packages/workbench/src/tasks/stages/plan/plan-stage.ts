import { join } from 'node:path';
import { WorkbenchError } from '../../../errors.ts';
import type { RunnerOutcome } from '../../../runners/index.ts';
import type { SessionRecord } from '../../../sessions/index.ts';
import { reserveSession, type TaskDeps } from '../../deps.ts';
import { moveTask } from '../../hand-off.ts';
import { planSession } from '../../plan-session.ts';
import { fetchPrdDocuments, type PrdDocument } from '../../prd-links.ts';
import { reservedTurn, startAutomatically, taskOfSucceededTurn } from '../../stage-errors.ts';
import { planPath, readIfExists, readPlan, taskFileExists, writeTaskFile } from '../../task-files.ts';
import type { PlanVersion, Task } from '../../types.ts';
import { planPrompt, planRefinePrompt } from './prompts.ts';

/**
 * Stages 02 and 03 share ONE session (and so one runner conversation): the plan is drafted and refined in
 * it, then broken into todos in it. What each turn's answer becomes depends on the task's state when the
 * turn ends (see `planTurnEnded`), so a chat message over the WebSocket works like the endpoints.
 */
export async function startPlan(deps: TaskDeps, taskId: string, message: string | undefined) {
  const task = await deps.store.check(taskId, 'plan');
  const session = await planSession(deps, task);
  // No plan.md yet (also after a first turn that failed): the full first prompt, whatever the session holds.
  const first = !taskFileExists(planPath(deps.paths.taskDir(taskId)));
  // Held from here, not from the turn: a second request while the PRD links are fetched is refused.
  const reservation = await reserveSession(
    deps,
    taskId,
    session.id,
    first ? 'writing the technical plan' : 'refining the technical plan',
  );
  const step = {
    what: first ? 'Writing the technical plan' : 'Refining the technical plan',
    retry: `POST /api/tasks/${taskId}/plan`,
  };
  deps.background.run(() =>
    reservedTurn(deps, taskId, reservation, step, async () => ({
      prompt: first
        ? await firstPlanPrompt(deps, task, session.id, message, reservation.signal)
        : planRefinePrompt(message, await handEdited(deps, taskId)),
      images: first ? task.images : [],
      shownAs: first ? (message ?? 'Write the technical plan.') : (message ?? 'Improve the plan.'),
    })),
  );
  return { task: await deps.store.get(taskId), session: await deps.sessions.get(session.id) };
}

/** On entering 02 (init confirmed): the first draft is written by itself (POST .../plan retries it). */
export async function planEntered(deps: TaskDeps, task: Task): Promise<void> {
  await startAutomatically(
    deps,
    task.id,
    { what: 'Writing the technical plan', retry: `POST /api/tasks/${task.id}/plan` },
    () => startPlan(deps, task.id, undefined),
  );
}

/**
 * PLANNING → the next stage (03), which breaks the plan into todos in the same session: held from before the
 * move, so that no chat turn slips in between and is read as the todo list.
 */
export async function lockPlan(deps: TaskDeps, taskId: string) {
  const task = await deps.store.check(taskId, 'lock_plan');
  // Read (not just looked for) before the state moves: a plan.md that is a link is refused here.
  if ((await readPlan(deps.paths.taskDir(taskId))) === null) {
    throw new WorkbenchError(
      'PLAN_MISSING',
      'There is no plan.md yet: generate it with POST /api/tasks/{id}/plan.',
      {
        task_id: taskId,
      },
    );
  }
  const session = await planSession(deps, task);
  const reservation = await reserveSession(deps, taskId, session.id, 'breaking the plan into todos');
  return {
    task: await moveTask(deps, taskId, 'lock_plan', reservation),
    session: await deps.sessions.get(session.id),
  };
}

/**
 * After every turn of the plan session in PLANNING: the answer becomes plan.md (a new version) when it is a
 * plan. A chat reply (no Markdown heading: "Sure, shorter it is…") leaves plan.md as it was, and the
 * session's log says so; the first draft must be a plan.
 */
export async function planTurnEnded(
  deps: TaskDeps,
  session: SessionRecord,
  outcome: RunnerOutcome,
): Promise<void> {
  const task = await taskOfSucceededTurn(deps, session, outcome);
  if (task?.state !== 'PLANNING') return;
  const answer = outcome.output.trim();
  if (!answer) throw new WorkbenchError('PLAN_EMPTY', 'The plan answer was empty: ask again.');
  const first =
    (await deps.store.planVersions(task.id)).length === 0 &&
    !taskFileExists(planPath(deps.paths.taskDir(task.id)));
  if (!first && !looksLikePlan(answer)) {
    deps.runner.record(session.id, {
      type: 'step',
      step: 'plan_kept',
      status: 'done',
      detail:
        'The answer is not a plan (it has no Markdown heading), so plan.md was kept as it was. Ask for the revised plan, or edit plan.md by hand.',
    });
    return;
  }
  await savePlan(deps, task.id, `${answer}\n`, 'ai', session.id);
}

/** A plan as the prompts ask for it: Markdown with at least one heading. */
function looksLikePlan(answer: string): boolean {
  return /^#{1,6}\s+\S/m.test(answer);
}

/** A chat message in the plan session while PLANNING: framed as a refinement, as `POST …/plan` frames it. */
export async function framePlanChat(
  deps: TaskDeps,
  session: SessionRecord,
  content: string,
): Promise<string | undefined> {
  if (!session.owner_id) return undefined;
  const task = await deps.store.get(session.owner_id).catch(() => null);
  if (task?.state !== 'PLANNING') return undefined;
  return planRefinePrompt(content, await handEdited(deps, task.id));
}

/**
 * Writes plan.md and records it as a new version. A plan.md from before versions were kept becomes
 * version 1 first, so the history starts where the plan did.
 */
export async function savePlan(
  deps: TaskDeps,
  taskId: string,
  content: string,
  source: 'ai' | 'user',
  sessionId: string | null,
): Promise<PlanVersion> {
  if ((await deps.store.planVersions(taskId)).length === 0) {
    let existing: string | null = null;
    try {
      existing = await readPlan(deps.paths.taskDir(taskId));
    } catch {
      // a plan.md the model replaced by a link is no version: it is replaced below, never read through
    }
    if (existing !== null) await deps.store.addPlanVersion(taskId, existing, 'ai', null);
  }
  writeTaskFile(deps.paths.taskDir(taskId), planPath(deps.paths.taskDir(taskId)), content);
  return await deps.store.addPlanVersion(taskId, content, source, sessionId);
}

/** The plan as the user last saved it, when their edit is the latest version (the next turn is told). */
async function handEdited(deps: TaskDeps, taskId: string): Promise<string | undefined> {
  const last = (await deps.store.planVersions(taskId)).at(-1);
  return last?.source === 'user' ? last.content : undefined;
}

async function firstPlanPrompt(
  deps: TaskDeps,
  task: Task,
  sessionId: string,
  message: string | undefined,
  signal: AbortSignal,
): Promise<string> {
  const documents = await fetchPrdDocuments(task.prd_links, (await deps.settings.stored()).prd_links, signal);
  await reportPrdDocuments(deps, task.id, sessionId, documents);
  const projectMd = readIfExists(join(deps.paths.taskDir(task.id), 'project.md'));
  const prompt = planPrompt(task, documents, projectMd, task.images.length);
  return message ? `${prompt}\n\n## Note from the user\n${message}` : prompt;
}

/**
 * What became of each PRD link, in the plan session's log (a `step` each) and, for the ones that could not
 * be read, on the task (`prd_link_errors`): the plan is written without them, and the user sees why.
 */
async function reportPrdDocuments(
  deps: TaskDeps,
  taskId: string,
  sessionId: string,
  documents: PrdDocument[],
) {
  const errors = documents
    .filter((document) => !document.ok)
    .map((document) => ({ url: document.url, message: document.text }));
  await deps.store.update(taskId, { prd_link_errors: errors });
  for (const document of documents) {
    deps.runner.record(
      sessionId,
      document.ok
        ? { type: 'step', step: 'prd_link', status: 'done', detail: `Read ${document.url}.` }
        : {
            type: 'step',
            step: 'prd_link',
            status: 'failed',
            detail: `Could not read ${document.url}: ${document.text}; the plan was written without it.`,
            error: { code: 'PRD_LINK_UNREADABLE', message: document.text },
          },
    );
  }
}
