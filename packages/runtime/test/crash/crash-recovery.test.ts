// long-running: 50 crash trials, each a killed process and a recovery
import { startMockModel } from '@keel/testkit';
import { expect, test } from 'vitest';
import { crashScript } from './crash-scenario.ts';
import { crashSuiteSettings } from './crash-settings.ts';
import { runCrashSuite } from './crash-suite.ts';

// SIGKILL at every kind of step boundary, on SQLite (the PostgreSQL twin is in @keel/store-postgres).
// docs/reliability.md says what each trial checks.

const settings = crashSuiteSettings();

test(
  `SQLite: ${settings.trials} seeded crash trials recover to the uninterrupted result`,
  async () => {
    await using model = await startMockModel({ script: crashScript });
    const outcome = await runCrashSuite({ name: 'SQLite', modelUrl: model.url, ...settings });
    console.log(outcome.summary);
    expect(outcome.failures).toEqual([]);
  },
  settings.timeoutMs,
);
