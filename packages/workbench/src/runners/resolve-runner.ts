import { WorkbenchError } from '../errors.ts';
import { type RunnerConfig, type RunnerKind, runnerKinds } from './contract.ts';

const builtinNames: Readonly<Record<RunnerKind, string>> = {
  keel: 'Keel',
  'claude-code': 'Claude Code',
  codex: 'Codex',
  gemini: 'Gemini CLI',
  opencode: 'opencode',
  cursor: 'Cursor Agent',
  acp: 'ACP agent',
};

/** Keel itself as an editor agent: `keel acp` (the `keel` of this install's PATH), the model from settings. */
export const keelAcpConfig: RunnerConfig = {
  id: 'keel-acp',
  name: 'Keel (ACP)',
  kind: 'acp',
  binary_path: 'keel',
  // The workbench's ACP client approves what stays in the workspace, and nobody is there to ask: with no
  // sandbox backend, a command Keel would ask a human about is refused instead of approved unconfined.
  extra_args: ['acp', '--unconfined-commands', 'refuse'],
  env: {},
};

/**
 * Built-in runner configs: one per kind, with id === kind (so a task can say runner "keel" with nothing
 * configured), then Keel over the Agent Client Protocol beside the default `opencode acp`.
 */
export function builtinRunnerConfigs(): RunnerConfig[] {
  const perKind = runnerKinds.map((kind) => ({
    id: kind,
    name: builtinNames[kind],
    kind,
    extra_args: [],
    env: {},
  }));
  return [...perKind, { ...keelAcpConfig, extra_args: [...keelAcpConfig.extra_args] }];
}

export type RunnerLevel = 'task' | 'project' | 'global' | 'default';

export interface RunnerChoice {
  task?: string | null | undefined;
  project?: string | null | undefined;
  global?: string | null | undefined;
}

/**
 * Resolution task > project > global (spec "Runner resolution"): the first level that names a runner config
 * decides. Ids are looked up in `configs`, then the built-ins; an unknown id is RUNNER_NOT_FOUND (404) naming
 * it; nothing set anywhere resolves to the built-in 'keel'.
 *
 * @example
 * resolveRunner({ task: null, project: 'my-codex', global: 'keel' }, configs); // { config: my-codex, level: 'project' }
 */
export function resolveRunner(
  choice: RunnerChoice,
  configs: RunnerConfig[],
): { config: RunnerConfig; level: RunnerLevel } {
  const builtins = builtinRunnerConfigs();
  const levels = [
    ['task', choice.task],
    ['project', choice.project],
    ['global', choice.global],
  ] as const;
  for (const [level, id] of levels) {
    if (!id) continue;
    const config = configs.find((each) => each.id === id) ?? builtins.find((each) => each.id === id);
    if (!config) {
      throw new WorkbenchError(
        'RUNNER_NOT_FOUND',
        `Runner config '${id}' (the ${level}'s runner) does not exist.`,
        {
          id,
          level,
        },
      );
    }
    return { config, level };
  }
  const keel = builtins.find((each) => each.kind === 'keel') as RunnerConfig;
  return { config: keel, level: 'default' };
}
