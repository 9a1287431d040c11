/**
 * A clock a test moves by hand, for RuntimeOptions.now (and a store's `now`): leases, interaction timeouts,
 * time budgets and sub-agent deadlines then pass when the test says, not after a real wait. It starts at
 * the real time, so timestamps and time-sorted ids look as usual, and only moves forward.
 */
export interface FakeClock {
  /** The clock's time: what `RuntimeOptions.now` is given. */
  now(): Date;
  /** Moves the clock forward by `ms`. */
  advance(ms: number): void;
}

export function fakeClock(start: number = Date.now()): FakeClock {
  let at = start;
  return {
    now: () => new Date(at),
    advance(ms: number) {
      if (ms < 0) throw new Error('A fake clock only moves forward.');
      at += ms;
    },
  };
}
