import { InvalidArgumentError } from 'commander';

/** Commander option parsers: a bad value is refused with usage help, never passed on. */
export function positiveInt(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new InvalidArgumentError('must be a positive integer');
  return number;
}

export function nonNegativeInt(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0)
    throw new InvalidArgumentError('must be a whole number, 0 or more');
  return number;
}

export function nonNegativeNumber(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0) throw new InvalidArgumentError('must be a number, 0 or more');
  return number;
}

/** A comma-separated list: `a, b,c` → ['a', 'b', 'c']. */
export function commaList(value: string): string[] {
  return value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

/** For repeatable options: collects every value. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** A parser that accepts only one of `choices`. */
export function oneOf<T extends string>(choices: readonly T[]): (value: string) => T {
  return (value) => {
    if (!choices.includes(value as T)) throw new InvalidArgumentError(`must be one of ${choices.join(', ')}`);
    return value as T;
  };
}
