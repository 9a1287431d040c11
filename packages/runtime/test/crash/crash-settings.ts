/**
 * How many crash trials to run, from which seed, how many at once. Defaults fit CI on two cores;
 * KEEL_CRASH_SEED=<n> KEEL_CRASH_TRIALS=1 replays the trial a failure names, KEEL_CRASH_TRIALS=500 digs deeper.
 */
export function crashSuiteSettings(env: NodeJS.ProcessEnv = process.env): {
  trials: number;
  firstSeed: number;
  concurrency: number;
  timeoutMs: number;
} {
  const trials = positive(env.KEEL_CRASH_TRIALS) ?? 50;
  const concurrency = positive(env.KEEL_CRASH_CONCURRENCY) ?? 4;
  return {
    trials,
    firstSeed: positive(env.KEEL_CRASH_SEED) ?? 1,
    concurrency,
    // Generous, for a loaded machine: a trial takes a few seconds; a stuck one fails by itself after 90 s.
    timeoutMs: 120_000 + Math.ceil(trials / concurrency) * 60_000,
  };
}

function positive(value: string | undefined): number | undefined {
  const number = Number(value);
  return value && Number.isInteger(number) && number > 0 ? number : undefined;
}
