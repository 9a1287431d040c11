import { WorkbenchError } from '../errors.ts';
import { AcpRunner } from './acp/index.ts';
import { createCliRunners } from './cli/index.ts';
import type { Runner, RunnerAvailability, RunnerConfig, RunnerKind } from './contract.ts';
import type { KeelRunnerOptions } from './keel-request.ts';
import { KeelRunner } from './keel-runner.ts';

/** The runners this process can run, by kind. */
export interface RunnerRegistry {
  /** The runner of a kind; RUNNER_NOT_SUPPORTED (422) for a kind not implemented yet. */
  get(kind: RunnerKind): Runner;
  has(kind: RunnerKind): boolean;
  /** One answer per config, in order; a kind not implemented yet is usable:false, 'not implemented yet'. */
  check(configs: RunnerConfig[]): Promise<RunnerAvailability[]>;
}

export interface RunnerRegistryOptions {
  keel?: KeelRunnerOptions;
  /**
   * The service's environment (default: the Keel runner's, else process.env). Third-party agents get only
   * its minimal part (`agentEnvironment`: PATH, HOME, locale, TMPDIR, ...) plus their runner config's `env`.
   */
  env?: NodeJS.ProcessEnv;
  /** Root of the command-line agents' private homes; resuming a conversation needs them to last. */
  homesDir?: string;
  /** More runners; one of a kind already registered replaces it. */
  runners?: Runner[];
}

const notImplemented = 'not implemented yet';

/**
 * The registry of runners: the Keel runtime in process, the command-line coding agents (Codex, opencode,
 * Claude Code, Gemini CLI, Cursor), the editor agents over ACP, and whatever `runners` adds.
 *
 * @example
 * const registry = createRunnerRegistry({ keel: { runtimeDir } });
 * const outcome = await registry.get(config.kind).run(request, emit);
 */
export function createRunnerRegistry(options: RunnerRegistryOptions = {}): RunnerRegistry {
  const env = options.env ?? options.keel?.env;
  const runners = new Map<RunnerKind, Runner>([['keel', new KeelRunner(options.keel ?? {})]]);
  const agents = [
    ...createCliRunners({
      ...(env ? { env } : {}),
      ...(options.homesDir ? { homesDir: options.homesDir } : {}),
    }),
    new AcpRunner(env ? { env } : {}),
    ...(options.runners ?? []),
  ];
  for (const runner of agents) runners.set(runner.kind, runner);
  return {
    get(kind) {
      const runner = runners.get(kind);
      if (!runner) {
        throw new WorkbenchError('RUNNER_NOT_SUPPORTED', `The '${kind}' runner is ${notImplemented}.`, {
          kind,
        });
      }
      return runner;
    },
    has: (kind) => runners.has(kind),
    check: (configs) =>
      Promise.all(
        configs.map(async (config): Promise<RunnerAvailability> => {
          const runner = runners.get(config.kind);
          if (!runner)
            return { kind: config.kind, config_id: config.id, usable: false, reason: notImplemented };
          try {
            return { ...(await runner.check(config)), config_id: config.id };
          } catch (error) {
            // A broken check says so for that config; it must not hide the others.
            return {
              kind: config.kind,
              config_id: config.id,
              usable: false,
              reason: (error as Error).message,
            };
          }
        }),
      ),
  };
}
