import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTempGitRepo, type ScriptedReply, startMockModel } from '@keel/testkit';
import {
  createRuntime,
  type RunRequest,
  type Runtime,
  type RuntimeEvent,
  type RuntimeOptions,
  type Workflow,
} from '../src/index.ts';

/**
 * A runtime wired to a scripted model over HTTP, a temp runtime dir and a temp git repo. `now` (a
 * fakeClock's) is the clock of the runtime, its store and `other()`.
 */
export async function startHarness(
  script: ScriptedReply[],
  files: Record<string, string> = {},
  options: Pick<RuntimeOptions, 'requireApproval' | 'now' | 'leaseMs' | 'trustProjectConfig' | 'tools'> = {},
) {
  const model = await startMockModel({ script });
  const runtimeDir = await mkdtemp(join(tmpdir(), 'keel-home-'));
  const repo = await createTempGitRepo({ files });
  const runtime: Runtime = createRuntime({
    runtimeDir,
    model: 'mock-model',
    modelBaseUrl: model.url,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    env: {},
    ...options,
  });
  return {
    model,
    runtime,
    repo,
    runtimeDir,
    workdir: repo.path,
    /** Runs and collects every event, also when the run fails. */
    async collect(
      request: Partial<RunRequest> & { prompt: string },
      signal?: AbortSignal,
      workflow?: Workflow,
    ) {
      const events: RuntimeEvent[] = [];
      let error: unknown;
      let result: Awaited<ReturnType<Runtime['run']>> | undefined;
      try {
        result = await runtime.run(
          { workdir: repo.path, ...request },
          {
            onEvent: (event) => void events.push(event),
            ...(signal ? { signal } : {}),
            ...(workflow ? { workflow } : {}),
          },
        );
      } catch (caught) {
        error = caught;
      }
      return { events, result, error, types: events.map((event) => event.type) };
    },
    /** Another runtime on the same store and model: what a second process would be. */
    other(extra: { requireApproval?: string[] } = {}): Runtime {
      return createRuntime({
        runtimeDir,
        model: 'mock-model',
        modelBaseUrl: model.url,
        retry: { baseDelayMs: 5, maxDelayMs: 20 },
        env: {},
        ...options,
        ...extra,
      });
    },
    async [Symbol.asyncDispose]() {
      await runtime.close();
      await model.close();
      await repo.remove();
      await rm(runtimeDir, { recursive: true, force: true });
    },
  };
}

/** Event types with runs of text_delta / thinking collapsed, to compare sequences readably. */
export function collapse(types: string[]): string[] {
  return types.filter(
    (type, index) => !(type === types[index - 1] && (type === 'text_delta' || type === 'thinking')),
  );
}
