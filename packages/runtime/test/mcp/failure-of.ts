import { expect } from 'vitest';
import { KeelError } from '../../src/errors/index.ts';

/** The KeelError a promise rejects with; fails the test when it resolves or rejects with anything else. */
export async function failureOf(promise: Promise<unknown>): Promise<KeelError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  expect(KeelError.is(outcome.error)).toBe(true);
  return outcome.error as KeelError;
}
