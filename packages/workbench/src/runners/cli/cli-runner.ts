import { realpath } from 'node:fs/promises';
import { agentEnvironment } from '../agent-env.ts';
import { assertRunnerRequest } from '../check-request.ts';
import type {
  Runner,
  RunnerAvailability,
  RunnerConfig,
  RunnerErrorObject,
  RunnerEvent,
  RunnerOutcome,
  RunnerRequest,
} from '../contract.ts';
import type { AgentAdapter, AgentContext, AgentEventMapper } from './agent.ts';
import { findBinary, readVersion } from './find-binary.ts';
import { parseJsonLine } from './json-lines.ts';
import { lastLines, type ProcessResult, runProcess } from './process-runner.ts';
import { SessionHomes } from './session-homes.ts';

/** What every command-line runner is built with. */
export interface CliRunnerOptions {
  /**
   * The service's environment (default process.env): the agents get only its minimal part (`agentEnvironment`),
   * each its own HOME, the adapter's variables and the runner config's env on top.
   */
  env?: NodeJS.ProcessEnv;
  /** Where agents installed with `npm install --prefix <agentsDir>` are looked for after PATH. */
  agentsDir?: string;
  /** Root of the private session homes (default `{os.tmpdir()}/keel-runners`; Codex: see session-homes). */
  homesDir?: string;
  /** Run time limit; `KEEL_RUNNER_TIMEOUT_MS` in the runner config's env wins. Default 30 minutes. */
  timeoutMs?: number;
}

export const defaultTimeoutMs = 30 * 60_000;

/**
 * A runner for one command-line coding agent: finds its program, gives it a private home, starts it in the
 * workdir, reads its JSON lines through the adapter's mapper, and turns every way it can go wrong (missing
 * program, non-zero exit, hang, broken output) into a failed outcome with an `error` event, never a throw.
 */
export class CliRunner implements Runner {
  readonly kind: AgentAdapter['kind'];
  readonly #adapter: AgentAdapter;
  readonly #options: CliRunnerOptions;

  constructor(adapter: AgentAdapter, options: CliRunnerOptions = {}) {
    this.kind = adapter.kind;
    this.#adapter = adapter;
    this.#options = options;
  }

  async check(config: RunnerConfig): Promise<RunnerAvailability> {
    const env = agentEnvironment(this.#baseEnv(), { config: config.env });
    const binary = await this.#find(config, env);
    if (!binary.found) return { kind: this.kind, usable: false, reason: binary.reason };
    const version = await readVersion(binary.path, env);
    return 'version' in version
      ? { kind: this.kind, usable: true, version: version.version }
      : { kind: this.kind, usable: false, reason: version.reason };
  }

  async run(request: RunnerRequest, emit: (event: RunnerEvent) => Promise<void>): Promise<RunnerOutcome> {
    assertRunnerRequest(request, this.kind);
    const sentErrors = new Set<string>();
    const send = async (event: RunnerEvent) => {
      if (event.type === 'error') sentErrors.add(event.error.message);
      await emit(event);
    };
    const fail = async (error: RunnerErrorObject, extra: Partial<RunnerOutcome> = {}) => {
      if (!sentErrors.has(error.message)) await send({ type: 'error', error });
      return { status: 'failed', output: '', ...extra, error } as RunnerOutcome;
    };
    if (request.signal.aborted) return { status: 'cancelled', output: '' };

    const baseEnv = this.#baseEnv();
    const binary = await this.#find(
      request.config,
      agentEnvironment(baseEnv, { config: request.config.env }),
    );
    if (!binary.found) {
      return fail({ code: 'RUNNER_BINARY_NOT_FOUND', message: `The ${this.kind} agent: ${binary.reason}.` });
    }
    const prepared = await this.#prepare(request, baseEnv).catch((error: unknown) => error as Error);
    if (prepared instanceof Error) {
      // A home or config file that cannot be written (disk full, no permission) fails this run only.
      return fail({
        code: 'RUNNER_FAILED',
        message: `The ${this.kind} agent could not be prepared: ${prepared.message}`,
      });
    }
    const { homes, home, invocation, mapper } = prepared;
    let started = false;
    let invalid: RunnerErrorObject | undefined;
    let lineNumber = 0;
    const sendMapped = async (events: RunnerEvent[]) => {
      for (const event of events) {
        // The session log opens with runner_started even for an agent whose first line is something else.
        if (!started && event.type !== 'runner_started')
          await send({ type: 'runner_started', runner: this.kind });
        started = true;
        await send(event);
      }
    };

    let result: ProcessResult;
    try {
      result = await runProcess(
        {
          binary: binary.path,
          args: [...invocation.args, ...request.config.extra_args, ...invocation.tail],
          cwd: request.workdir,
          // Not the service's environment: its tokens and credentials stay out of the agent's reach.
          env: agentEnvironment(baseEnv, { set: invocation.env, config: request.config.env }),
          timeoutMs: timeoutOf(request.config, this.#options.timeoutMs),
          signal: request.signal,
        },
        async (line) => {
          lineNumber += 1;
          const parsed = parseJsonLine(line, lineNumber);
          if (!parsed) return;
          if (!parsed.ok) {
            // Reported at once and read on: the rest of the run is still worth showing.
            invalid ??= parsed.error;
            await send({ type: 'error', error: parsed.error });
            return;
          }
          await sendMapped(mapper.map(parsed.value));
        },
      );
      await sendMapped(mapper.finish());
    } finally {
      if (mapper.sessionId) await homes.remember(this.kind, mapper.sessionId, home.path);
      else if (home.fresh) await homes.discard(home.path);
    }

    const ids = {
      output: mapper.output,
      ...(mapper.sessionId ? { runnerSessionId: mapper.sessionId } : {}),
      ...(mapper.usage ? { usage: mapper.usage } : {}),
    };
    if (result.aborted) return { status: 'cancelled', ...ids };
    const failure = this.#failureOf(result, mapper, invalid, request.config);
    if (failure) return fail(failure, { ...ids, output: '' });
    return { status: 'succeeded', ...ids };
  }

  /** The session's private home (a resumed session gets its own back), the agent's config and command line. */
  async #prepare(request: RunnerRequest, baseEnv: NodeJS.ProcessEnv) {
    const homesRoot = this.#adapter.homesRoot
      ? await this.#adapter.homesRoot(this.#options.homesDir, baseEnv)
      : this.#options.homesDir;
    const homes = new SessionHomes(homesRoot);
    const home = await homes.homeFor(this.kind, request.resumeSessionId);
    const real = await realpath(request.workdir).catch(() => undefined);
    const context: AgentContext = {
      request,
      home: home.path,
      model: request.model.model || request.config.model || undefined,
      env: baseEnv,
      workdirs: real ? [request.workdir, real] : [request.workdir],
    };
    try {
      return {
        homes,
        home,
        invocation: await this.#adapter.prepare(context),
        mapper: this.#adapter.createMapper(context),
      };
    } catch (error) {
      if (home.fresh) await homes.discard(home.path);
      throw error;
    }
  }

  #failureOf(
    result: ProcessResult,
    mapper: AgentEventMapper,
    invalid: RunnerErrorObject | undefined,
    config: RunnerConfig,
  ): RunnerErrorObject | undefined {
    const stderr = lastLines(result.stderrTail);
    if (result.spawnError) {
      return {
        code: 'RUNNER_FAILED',
        message: `The ${this.kind} agent could not be started: ${result.spawnError.message}`,
      };
    }
    if (result.timedOut) {
      const limit = timeoutOf(config, this.#options.timeoutMs);
      return {
        code: 'RUNNER_TIMEOUT',
        message: `The ${this.kind} agent did not finish within ${limit} ms and was stopped.`,
        details: { timeout_ms: limit, stderr },
      };
    }
    if (result.exitCode !== 0) {
      const how =
        result.exitCode === null
          ? `was killed by ${result.exitSignal}`
          : `exited with code ${result.exitCode}`;
      return {
        code: 'RUNNER_FAILED',
        // The agent's own words first: they say why (a refused key, an unknown session).
        message:
          mapper.error?.message ??
          `The ${this.kind} agent ${how}${stderr.length ? `: ${stderr.at(-1)}` : '.'}`,
        details: { exit_code: result.exitCode, signal: result.exitSignal, stderr },
      };
    }
    return mapper.error ?? invalid;
  }

  #baseEnv(): NodeJS.ProcessEnv {
    return this.#options.env ?? process.env;
  }

  #find(config: RunnerConfig, env: NodeJS.ProcessEnv) {
    return findBinary(this.#adapter.binaryNames, {
      ...(config.binary_path ? { binaryPath: config.binary_path } : {}),
      env,
      ...(this.#options.agentsDir ? { agentsDir: this.#options.agentsDir } : {}),
    });
  }
}

/** The run's time limit: `KEEL_RUNNER_TIMEOUT_MS` from the runner config's env, else the option, else 30 min. */
export function timeoutOf(config: RunnerConfig, option: number | undefined): number {
  const fromConfig = Number(config.env?.KEEL_RUNNER_TIMEOUT_MS);
  if (Number.isFinite(fromConfig) && fromConfig > 0) return fromConfig;
  return option && option > 0 ? option : defaultTimeoutMs;
}
