import { describe, expect, test } from 'vitest';
import {
  builtinRunnerConfigs,
  type RunnerConfig,
  resolveRunner,
  runnerKinds,
} from '../../src/runners/index.ts';

const mine: RunnerConfig[] = [
  {
    id: 'fast-codex',
    name: 'Codex, fast model',
    kind: 'codex',
    model: 'gpt-5-mini',
    extra_args: [],
    env: {},
  },
  { id: 'claude', name: 'Claude Code', kind: 'claude-code', extra_args: ['--verbose'], env: {} },
  // A user config may reuse a built-in id: the user's wins.
  { id: 'keel', name: 'Keel, local model', kind: 'keel', model: 'qwen3-coder', extra_args: [], env: {} },
];

describe('builtinRunnerConfigs', () => {
  test('one per kind, with id === kind, then Keel over ACP', () => {
    const builtins = builtinRunnerConfigs();
    expect(builtins.map((config) => config.id)).toEqual([...runnerKinds, 'keel-acp']);
    for (const config of builtins.slice(0, -1)) {
      expect(config).toMatchObject({ id: config.kind, extra_args: [], env: {} });
      expect(config.name).toMatch(/\S/);
    }
    expect(builtins.at(-1)).toEqual({
      id: 'keel-acp',
      name: 'Keel (ACP)',
      kind: 'acp',
      binary_path: 'keel',
      extra_args: ['acp', '--unconfined-commands', 'refuse'],
      env: {},
    });
  });
});

describe('resolveRunner', () => {
  test.each([
    [{ task: 'claude', project: 'fast-codex', global: 'keel' }, 'claude', 'task'],
    [{ task: null, project: 'fast-codex', global: 'claude' }, 'fast-codex', 'project'],
    [{ project: undefined, global: 'claude' }, 'claude', 'global'],
    [{ task: '', project: null, global: 'fast-codex' }, 'fast-codex', 'global'],
    [{}, 'keel', 'default'],
    [{ task: null, project: null, global: null }, 'keel', 'default'],
    [{ task: 'gemini' }, 'gemini', 'task'],
  ])('%j → %s (%s)', (choice, id, level) => {
    const resolved = resolveRunner(choice, mine);
    expect(resolved.config.id).toBe(id);
    expect(resolved.level).toBe(level);
  });

  test("a user config wins over the built-in of the same id; nothing configured gives the built-in 'keel'", () => {
    expect(resolveRunner({ task: 'keel' }, mine).config.model).toBe('qwen3-coder');
    expect(resolveRunner({}, []).config).toEqual({
      id: 'keel',
      name: 'Keel',
      kind: 'keel',
      extra_args: [],
      env: {},
    });
    expect(resolveRunner({ global: 'codex' }, []).config.kind).toBe('codex');
  });

  test('an unknown id is RUNNER_NOT_FOUND (404) naming it and its level, even when a lower level is fine', () => {
    expect(() => resolveRunner({ task: null, project: 'gone', global: 'keel' }, mine)).toThrow(
      expect.objectContaining({
        name: 'WorkbenchError',
        code: 'RUNNER_NOT_FOUND',
        status: 404,
        message: expect.stringContaining("'gone'"),
        details: { id: 'gone', level: 'project' },
      }),
    );
  });
});
