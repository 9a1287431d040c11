import { WorkbenchError } from '../errors.ts';
import type { RunnerOutcome } from '../runners/index.ts';
import type { Reservation, SessionRecord, TurnInput } from '../sessions/index.ts';
import type { TaskDeps } from './deps.ts';
import type { Task } from './types.ts';

/**
 * Writes the task's `error` (what failed, why, and the request that retries it), or clears it. A task
 * deleted meanwhile is left alone: work that ends after a delete has nothing to report to.
 */
export async function noteTaskError(deps: TaskDeps, taskId: string, error: string | null): Promise<void> {
  try {
    if ((await deps.store.get(taskId)).error !== error) await deps.store.update(taskId, { error });
  } catch {}
}

/** A stage's work in words and the request that retries it by hand, for the task's `error`. */
export interface StageStep {
  /** "Writing the technical plan", "The todo list", "Writing the commit message". */
  what: string;
  /** "POST /api/tasks/{id}/plan". */
  retry: string;
}

/** Runs a stage's turn and leaves its outcome on the task: an error saying how to retry, or none. */
async function reportedTurn(
  deps: TaskDeps,
  taskId: string,
  step: StageStep,
  run: () => Promise<RunnerOutcome>,
): Promise<void> {
  let outcome: RunnerOutcome;
  try {
    outcome = await run();
  } catch (error) {
    await noteTaskError(
      deps,
      taskId,
      `${step.what} failed: ${(error as Error).message} Retry with ${step.retry}.`,
    );
    throw error;
  }
  if (outcome.status === 'succeeded') await noteTaskError(deps, taskId, null);
  else if (outcome.status === 'cancelled')
    await noteTaskError(deps, taskId, `${step.what} was stopped. Start it again with ${step.retry}.`);
  else {
    const reason = outcome.error?.message ?? 'the runner failed';
    await noteTaskError(deps, taskId, `${step.what} failed: ${reason} Retry with ${step.retry}.`);
  }
}

/**
 * Starts an automatic step (its start answers once the step holds what it needs and runs in the
 * background); when it cannot start, the reason and the request that starts it by hand go on the task.
 */
export async function startAutomatically(
  deps: TaskDeps,
  taskId: string,
  step: StageStep,
  start: () => Promise<unknown>,
): Promise<void> {
  try {
    await start();
  } catch (error) {
    await notStarted(deps, taskId, step, error);
  }
}

async function notStarted(deps: TaskDeps, taskId: string, step: StageStep, error: unknown): Promise<void> {
  await noteTaskError(
    deps,
    taskId,
    `${step.what} did not start automatically: ${(error as Error).message} Start it with ${step.retry}.`,
  );
}

/**
 * Runs the work of a reserved session and releases it at the end. Work that fails before its turn (a
 * prompt that could not be built) ends the session failed, never `queued` or `running` forever.
 */
async function held(deps: TaskDeps, reservation: Reservation, work: () => Promise<void>) {
  try {
    await work();
  } catch (error) {
    const session = await deps.sessions.find(reservation.sessionId);
    if (session && session.status !== 'failed' && session.status !== 'cancelled') {
      const failure = WorkbenchError.is(error)
        ? error.toJSON()
        : { code: 'SERVER_ERROR', message: (error as Error).message };
      try {
        await deps.runner.setStatus(reservation.sessionId, 'failed', failure);
      } catch {}
    }
    throw error;
  } finally {
    reservation.release();
  }
}

/**
 * One turn of the reserved session, its outcome reported on the task (`step`, how to retry) and the
 * session released at its end: the work each stage hands to `deps.background.run`.
 */
export async function reservedTurn(
  deps: TaskDeps,
  taskId: string,
  reservation: Reservation,
  step: StageStep,
  input: () => TurnInput | Promise<TurnInput>,
): Promise<void> {
  await held(deps, reservation, () =>
    reportedTurn(deps, taskId, step, async () =>
      deps.runner.turn(reservation.sessionId, await input(), reservation),
    ),
  );
}

/** The task a session's turn was for, when the turn succeeded: what a stage's turn-end handler reads first. */
export async function taskOfSucceededTurn(
  deps: TaskDeps,
  session: SessionRecord,
  outcome: RunnerOutcome,
): Promise<Task | undefined> {
  if (outcome.status !== 'succeeded' || !session.owner_id) return undefined;
  return await deps.store.get(session.owner_id);
}
