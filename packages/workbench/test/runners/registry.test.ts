import { describe, expect, test } from 'vitest';
import {
  builtinRunnerConfigs,
  createRunnerRegistry,
  KeelRunner,
  type RunnerConfig,
  runnerKinds,
} from '../../src/runners/index.ts';

describe('createRunnerRegistry', () => {
  const registry = createRunnerRegistry({ keel: { env: { PATH: process.env.PATH ?? '' } } });

  test('the Keel runner is implemented', () => {
    expect(registry.has('keel')).toBe(true);
    const runner = registry.get('keel');
    expect(runner).toBeInstanceOf(KeelRunner);
    expect(runner.kind).toBe('keel');
  });

  test.each(runnerKinds.filter((kind) => kind !== 'keel'))(
    '%s is not implemented yet: RUNNER_NOT_SUPPORTED (422)',
    (kind) => {
      expect(registry.has(kind)).toBe(false);
      expect(() => registry.get(kind)).toThrow(
        expect.objectContaining({
          name: 'WorkbenchError',
          code: 'RUNNER_NOT_SUPPORTED',
          status: 422,
          details: { kind },
        }),
      );
    },
  );

  test('check answers each config in order: keel usable with a version, the rest not implemented yet', async () => {
    const custom: RunnerConfig = { id: 'my-keel', name: 'Mine', kind: 'keel', extra_args: [], env: {} };
    const answers = await registry.check([custom, ...builtinRunnerConfigs()]);
    expect(answers).toHaveLength(runnerKinds.length + 1);
    expect(answers[0]).toEqual({
      kind: 'keel',
      config_id: 'my-keel',
      usable: true,
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
    expect(answers[1]).toMatchObject({ kind: 'keel', config_id: 'keel', usable: true });
    for (const answer of answers.slice(2)) {
      expect(answer).toEqual({
        kind: answer.kind,
        config_id: answer.kind,
        usable: false,
        reason: 'not implemented yet',
      });
    }
  });
});
