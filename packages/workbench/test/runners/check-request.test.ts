import { describe, expect, test } from 'vitest';
import { AcpRunner } from '../../src/runners/acp/index.ts';
import { createCliRunners } from '../../src/runners/cli/index.ts';
import {
  builtinRunnerConfigs,
  KeelRunner,
  type Runner,
  type RunnerRequest,
} from '../../src/runners/index.ts';

const keelConfig = builtinRunnerConfigs().find((config) => config.kind === 'keel')!;
const request = (overrides: Partial<RunnerRequest>): RunnerRequest => ({
  prompt: 'x',
  workdir: '/tmp',
  model: { model: 'm' },
  mcpServers: [],
  skillDirs: [],
  config: keelConfig,
  signal: new AbortController().signal,
  ...overrides,
});

describe('every runner refuses a request the caller built wrongly, before starting anything', () => {
  const runners: Runner[] = [new KeelRunner({}), new AcpRunner({}), ...createCliRunners({})];
  test.each(runners.map((runner) => [runner.kind, runner] as const))('%s', async (kind, runner) => {
    const wrong = kind === 'keel' ? 'codex' : 'keel';
    const config = builtinRunnerConfigs().find((each) => each.kind === wrong)!;
    await expect(runner.run(request({ config, workdir: '' }), async () => {})).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      status: 400,
      details: {
        problems: ['workdir must be a non-empty string', `config.kind must be '${kind}', not '${wrong}'`],
      },
    });
  });
});
