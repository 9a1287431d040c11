import { createRuntime, type Run, type Runtime, toErrorObject } from '@keel/runtime';
import { assertRunnerRequest } from './check-request.ts';
import type {
  Runner,
  RunnerAvailability,
  RunnerConfig,
  RunnerErrorObject,
  RunnerEvent,
  RunnerOutcome,
  RunnerRequest,
  RunnerUsage,
} from './contract.ts';
import { KeelEventMapper } from './keel-events.ts';
import { type KeelRunnerOptions, runRequestOf, runtimeOptionsOf } from './keel-request.ts';
import { runtimeVersion } from './runtime-version.ts';

/**
 * The Keel runtime in process, through its public SDK. Each request is one durable run in the runtime's
 * store (RUNTIME_HOME), so `keel runs watch <runId>` shows it; `resumeSessionId` continues a Keel session.
 *
 * @example
 * const runner = new KeelRunner({ runtimeDir });
 * const outcome = await runner.run(request, async (event) => log.append(event));
 */
export class KeelRunner implements Runner {
  readonly kind = 'keel' as const;
  readonly #options: KeelRunnerOptions;

  constructor(options: KeelRunnerOptions = {}) {
    this.#options = options;
  }

  /** Always usable: it runs in this process. A missing model is the settings' concern, not the runner's. */
  async check(_config: RunnerConfig): Promise<RunnerAvailability> {
    const version = await runtimeVersion();
    return { kind: 'keel', usable: true, ...(version ? { version } : {}) };
  }

  async run(request: RunnerRequest, emit: (event: RunnerEvent) => Promise<void>): Promise<RunnerOutcome> {
    assertRunnerRequest(request, 'keel');
    const send = emit;
    if (request.signal.aborted) return { status: 'cancelled', output: '' };
    let runtime: Runtime | undefined;
    let run: Run;
    try {
      runtime = createRuntime(runtimeOptionsOf(this.#options, request));
      // Recorded first and executed here, so the run id is known before the first event.
      run = await runtime.start(runRequestOf(request), { execute: false });
    } catch (thrown) {
      // No model, an unknown session, a missing workdir: the agent cannot start, which is a failure to report.
      await runtime?.close().catch(() => undefined);
      return failed(toErrorObject(thrown), send);
    }
    try {
      await send({
        type: 'runner_started',
        runner: 'keel',
        ...(run.session_id ? { runner_session_id: run.session_id } : {}),
        run_id: run.id,
      });
      const mapper = new KeelEventMapper([request.workdir, run.workdir]);
      let errorSent = false;
      // Executed here, or followed while it waits for an approval decided from `keel` elsewhere.
      const final = await runtime.follow(run.id, {
        after: 0,
        signal: request.signal,
        onEvent: async (event) => {
          for (const mapped of mapper.map(event)) {
            if (mapped.type === 'error') errorSent = true;
            await send(mapped);
          }
        },
      });
      return await outcomeOf(final, errorSent, send);
    } finally {
      // Stops the MCP servers this run started and closes the store.
      await runtime.close().catch(() => undefined);
    }
  }
}

async function outcomeOf(
  run: Run,
  errorSent: boolean,
  send: (event: RunnerEvent) => Promise<void>,
): Promise<RunnerOutcome> {
  const ids = { ...(run.session_id ? { runnerSessionId: run.session_id } : {}), runId: run.id };
  const usage: RunnerUsage = { ...run.usage, cost_usd: run.cost_usd };
  if (run.status === 'succeeded') {
    const result = (run.result ?? {}) as { output?: unknown };
    return {
      status: 'succeeded',
      output: typeof result.output === 'string' ? result.output : '',
      ...ids,
      usage,
    };
  }
  if (run.status === 'cancelled') return { status: 'cancelled', output: '', ...ids, usage };
  const error: RunnerErrorObject = run.error ?? { code: 'SERVER_ERROR', message: `Run '${run.id}' failed.` };
  // A run failed before its first step (a broken config) has no error event of its own.
  if (!errorSent) await send({ type: 'error', error });
  return { status: 'failed', output: '', ...ids, usage, error };
}

async function failed(
  error: RunnerErrorObject,
  send: (event: RunnerEvent) => Promise<void>,
): Promise<RunnerOutcome> {
  await send({ type: 'error', error });
  return { status: 'failed', output: '', error };
}
