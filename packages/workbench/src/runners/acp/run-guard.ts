import type { RunnerErrorObject } from '../contract.ts';
import type { AgentProcess } from './agent-process.ts';

/** Why a run stopped before the agent answered: the outcome it becomes. */
export class RunStop extends Error {
  readonly status: 'failed' | 'cancelled';
  readonly error: RunnerErrorObject | undefined;

  constructor(status: 'failed' | 'cancelled', error?: RunnerErrorObject) {
    super(error?.message ?? status);
    this.status = status;
    this.error = error;
  }
}

/**
 * Races each step of a run against what can end it from outside: the agent exiting, the agent going silent
 * for longer than the timeout, and the caller's abort. So a dead or hung agent becomes an outcome, never a
 * hang. `onAbort` runs first on abort (to send `session/cancel`); the run is stopped after `graceMs` if the
 * agent does not end the turn itself.
 */
export class RunGuard {
  readonly stopped: Promise<never>;
  #stop: (stop: RunStop) => void = () => undefined;
  #timer: NodeJS.Timeout | undefined;
  #graceTimer: NodeJS.Timeout | undefined;
  readonly #timeoutMs: number;
  readonly #signal: AbortSignal;
  readonly #abortListener: () => void;
  onAbort: () => boolean = () => false;

  constructor(agent: AgentProcess, timeoutMs: number, signal: AbortSignal, graceMs = 5_000) {
    this.#timeoutMs = timeoutMs;
    this.#signal = signal;
    this.stopped = new Promise<never>((_, reject) => {
      this.#stop = reject;
    });
    // Nobody may be racing at the moment the stop comes; it is still seen by the next race.
    this.stopped.catch(() => undefined);
    void agent.exited.then(({ code, signal: killedBy }) => {
      const how = killedBy ? `was killed by ${killedBy}` : `exited with code ${code}`;
      this.#stop(new RunStop('failed', { code: 'RUNNER_EXITED', message: `The ACP agent ${how}.` }));
    });
    agent.onActivity(() => this.#arm());
    this.#arm();
    this.#abortListener = () => {
      // A turn in progress is cancelled politely; anything else ends at once.
      if (this.onAbort()) {
        this.#graceTimer = setTimeout(() => this.#stop(new RunStop('cancelled')), graceMs);
      } else {
        this.#stop(new RunStop('cancelled'));
      }
    };
    signal.addEventListener('abort', this.#abortListener, { once: true });
  }

  race<T>(step: Promise<T>): Promise<T> {
    return Promise.race([step, this.stopped]);
  }

  dispose(): void {
    clearTimeout(this.#timer);
    clearTimeout(this.#graceTimer);
    this.#signal.removeEventListener('abort', this.#abortListener);
  }

  #arm(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      const minutes = this.#timeoutMs >= 60_000 ? ` (${Math.round(this.#timeoutMs / 60_000)} min)` : '';
      this.#stop(
        new RunStop('failed', {
          code: 'RUNNER_TIMEOUT',
          message: `The ACP agent was silent for ${this.#timeoutMs} ms${minutes}, longer than the timeout.`,
        }),
      );
    }, this.#timeoutMs);
  }
}
