import { WorkbenchError } from '../errors.ts';
import type { SessionKind } from './types.ts';

/**
 * A session held for one piece of work, from the moment the work is accepted (the endpoint's 202) until it
 * ended, including what runs before its turn (fetching PRD links, a before-snapshot, a diff) and after it.
 * No other turn starts in the session meanwhile: a second request is refused with 409 SESSION_BUSY.
 */
export interface Reservation {
  readonly sessionId: string;
  /** What the session is busy with, in words ("writing the technical plan", "running todo 2 ('Add tests')"). */
  readonly what: string;
  /** Aborted when the work is stopped (POST /api/sessions/{id}/stop, a cancelled or deleted task). */
  readonly signal: AbortSignal;
  /** Ends the hold; whoever reserved calls it once the work is over, also when it failed. Idempotent. */
  release(): void;
}

/** Why a session's work was aborted, in words: the turn's `cancelled` error and its log entry say it. */
export const stopReasons = {
  user: 'Stopped by the user.',
  task: 'Stopped: the task was cancelled.',
  deleted: 'Stopped: its task, project or conversation is being deleted.',
  shutdown: 'Stopped: the workbench is shutting down.',
} as const;

export interface Hold {
  reservation: Reservation;
  controller: AbortController;
  /** Resolves when the hold is released. */
  ended: Promise<void>;
}

/** What a session of each kind is busy with when no caller named it (a chat message, a knowledge layer). */
export const busyWith: Record<SessionKind, string> = {
  knowledge: 'generating project knowledge',
  task_init: 'initializing the task',
  plan: 'a turn of the plan conversation',
  coding: 'a turn of the todo conversation',
  reviewer: 'a turn of the reviewer',
  review: 'a turn of the review conversation',
  conversation: 'answering a message',
};

/**
 * Which sessions are held for work (in memory), which are retired (their owner is being deleted: nothing
 * starts in them any more), and why a hold's work was aborted.
 */
export class Holds {
  /** Sessions held for work (reserved, maybe not yet in their turn). */
  readonly #active = new Map<string, Hold>();
  readonly #retired = new Set<string>();
  /** Why a hold's work was aborted (stop, a cancelled task, a delete, shutdown), in words. */
  readonly #why = new WeakMap<AbortController, string>();

  get(sessionId: string): Hold | undefined {
    return this.#active.get(sessionId);
  }

  has(sessionId: string): boolean {
    return this.#active.has(sessionId);
  }

  all(): IterableIterator<Hold> {
    return this.#active.values();
  }

  isRetired(sessionId: string): boolean {
    return this.#retired.has(sessionId);
  }

  /** 409 SESSION_BUSY naming what runs when the session is held for work. */
  assertIdle(sessionId: string): void {
    const hold = this.#active.get(sessionId);
    if (hold) {
      const what = hold.reservation.what;
      throw new WorkbenchError(
        'SESSION_BUSY',
        `This session is still busy with ${what}. Wait for it to finish, or stop it (POST /api/sessions/${sessionId}/stop), then try again.`,
        { session_id: sessionId, running: what },
      );
    }
  }

  /** 409 SESSION_CLOSED when the session is retired. */
  assertOpen(sessionId: string): void {
    if (this.#retired.has(sessionId)) {
      throw new WorkbenchError(
        'SESSION_CLOSED',
        'This session belongs to work that is being deleted: nothing more can run in it.',
        { session_id: sessionId },
      );
    }
  }

  /**
   * Takes the hold in one synchronous step: the open and idle checks and the hold itself, with no await
   * between them for another request to slip into. `released` runs once the hold is let go, right after it
   * left the table and before anyone waiting on `ended` resumes.
   */
  take(sessionId: string, what: string, released: () => void): Reservation {
    this.assertOpen(sessionId);
    this.assertIdle(sessionId);
    const controller = new AbortController();
    let end = () => {};
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    const reservation: Reservation = {
      sessionId,
      what,
      signal: controller.signal,
      release: () => {
        if (this.#active.get(sessionId)?.reservation === reservation) {
          this.#active.delete(sessionId);
          released();
        }
        end();
      },
    };
    this.#active.set(sessionId, { reservation, controller, ended });
    return reservation;
  }

  /** Aborts the hold's work; the first reason given is the one its log and row say. */
  abort(hold: Hold, why: string): void {
    if (!hold.controller.signal.aborted) this.#why.set(hold.controller, why);
    hold.controller.abort();
  }

  /** Why the work under this controller was aborted, if it was. */
  why(controller: AbortController): string | undefined {
    return this.#why.get(controller);
  }

  /** Refuses any new work in the session from now on (its owner is being deleted). */
  retire(sessionId: string): void {
    this.#retired.add(sessionId);
  }
}
