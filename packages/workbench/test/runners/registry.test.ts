import { describe, expect, test } from 'vitest';
import {
  builtinRunnerConfigs,
  createRunnerRegistry,
  KeelRunner,
  type RunnerConfig,
  runnerKinds,
} from '../../src/runners/index.ts';

describe('createRunnerRegistry', () => {
  // A PATH with no coding agent on it (only system tools), so the agents are found nowhere.
  const registry = createRunnerRegistry({ keel: { env: { PATH: '/usr/bin:/bin' } } });

  test('the Keel runner is implemented', () => {
    expect(registry.has('keel')).toBe(true);
    const runner = registry.get('keel');
    expect(runner).toBeInstanceOf(KeelRunner);
    expect(runner.kind).toBe('keel');
  });

  test('every runner kind is implemented', () => {
    for (const kind of runnerKinds) {
      expect(registry.has(kind)).toBe(true);
      expect(registry.get(kind).kind).toBe(kind);
    }
  });

  test('an added runner replaces the built-in of its kind', () => {
    const custom = {
      ...new KeelRunner({}),
      kind: 'cursor' as const,
      check: async () => ({ kind: 'cursor' as const, usable: true }),
      run: async () => ({ status: 'succeeded' as const, output: '' }),
    };
    const replaced = createRunnerRegistry({ runners: [custom] });
    expect(replaced.get('cursor')).toBe(custom);
  });

  test('check answers each config in order: keel usable with a version, an agent missing here says why', async () => {
    const custom: RunnerConfig = { id: 'my-keel', name: 'Mine', kind: 'keel', extra_args: [], env: {} };
    const perKind = builtinRunnerConfigs().filter((config) => config.id === config.kind);
    const answers = await registry.check([custom, ...perKind]);
    expect(answers).toHaveLength(runnerKinds.length + 1);
    expect(answers[0]).toEqual({
      kind: 'keel',
      config_id: 'my-keel',
      usable: true,
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
    expect(answers[1]).toMatchObject({ kind: 'keel', config_id: 'keel', usable: true });
    // This test's PATH has no third-party agent on it: each is unusable, with the reason.
    for (const answer of answers.slice(2)) {
      expect(answer).toMatchObject({ kind: answer.kind, config_id: answer.kind, usable: false });
      expect(answer.reason).toMatch(/\S/);
    }
  });
});
