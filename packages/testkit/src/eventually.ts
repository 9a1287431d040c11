import { inspect } from 'node:util';
import { TestkitError } from './errors.ts';

export interface EventuallyOptions {
  /** How long to keep trying, in milliseconds. Default 5000. */
  timeoutMs?: number;
  /** The pause between two tries, in milliseconds. Default 25. */
  intervalMs?: number;
  /**
   * What is awaited, for the timeout message ("the run to succeed"). A function is called only when the
   * time is up, for context known only then (the screen, the messages received so far).
   */
  what?: string | (() => string);
}

/** The values `eventually` accepts as an answer. */
export type Truthy<T> = Exclude<T, false | null | undefined | 0 | 0n | ''>;

/**
 * Polls `check` until it answers a truthy value, and resolves with that value: for effects that land
 * after the call that caused them (a run finishing, a file appearing, a process being reaped), without
 * sleeping a fixed time.
 *
 * A falsy answer and a thrown error both mean "not yet": `check` is tried again after `intervalMs`,
 * until `timeoutMs` has passed (it is always tried at least once, and once more at the deadline). Then
 * it rejects with a `TestkitError` (`code: 'TIMEOUT'`) naming `what` and the last answer, or the last
 * error (also its `cause`).
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  options: EventuallyOptions = {},
): Promise<Truthy<Awaited<T>>> {
  const { timeoutMs = 5_000, intervalMs = 25 } = options;
  const deadline = Date.now() + timeoutMs;
  let last: { value: unknown } | { error: unknown } = { value: undefined };
  for (;;) {
    try {
      const value = await check();
      if (value) return value as Truthy<Awaited<T>>;
      last = { value };
    } catch (error) {
      last = { error };
    }
    const left = deadline - Date.now();
    if (left <= 0) break;
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, left)));
  }
  const what = typeof options.what === 'function' ? options.what() : (options.what ?? 'the check to pass');
  const outcome =
    'error' in last ? `last error: ${describe(last.error)}` : `last answer: ${describe(last.value)}`;
  throw new TestkitError('TIMEOUT', `Timed out after ${timeoutMs} ms waiting for ${what}; ${outcome}`, {
    details: last,
    ...('error' in last ? { cause: last.error } : {}),
  });
}

function describe(value: unknown): string {
  const text =
    value instanceof Error
      ? `${value.name}: ${value.message}`
      : inspect(value, { depth: 4, breakLength: Number.POSITIVE_INFINITY });
  return text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text;
}
