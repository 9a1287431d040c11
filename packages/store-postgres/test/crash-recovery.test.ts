// long-running: 50 crash trials, each a killed process and a recovery
import { startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { crashScript } from '../../runtime/test/crash/crash-scenario.ts';
import { crashSuiteSettings } from '../../runtime/test/crash/crash-settings.ts';
import { runCrashSuite } from '../../runtime/test/crash/crash-suite.ts';
import { dropSchema, pgUrl, randomSchema } from './pg-test-store.ts';

// The crash trials of @keel/runtime (test/crash/) on PostgreSQL: every worker process opens the store
// its config.json names, one throwaway schema for the suite. docs/reliability.md says what is checked.

const settings = crashSuiteSettings();

describe.skipIf(!pgUrl)('crashes on PostgreSQL', () => {
  test(
    `PostgreSQL: ${settings.trials} seeded crash trials recover to the uninterrupted result`,
    async () => {
      const schema = randomSchema();
      await using model = await startMockModel({ script: crashScript });
      try {
        const outcome = await runCrashSuite({
          name: 'PostgreSQL',
          modelUrl: model.url,
          store: { kind: 'postgres', url: pgUrl!, schema },
          ...settings,
        });
        console.log(outcome.summary);
        expect(outcome.failures).toEqual([]);
      } finally {
        await dropSchema(pgUrl!, schema);
      }
    },
    settings.timeoutMs,
  );
});
