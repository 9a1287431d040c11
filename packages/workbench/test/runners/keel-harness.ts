import { createTempDir, createTempGitRepo, type ScriptedReply, startMockModel } from '@keel/testkit';
import type { RunnerEvent, RunnerOutcome, RunnerRequest } from '../../src/runners/index.ts';
import { KeelRunner } from '../../src/runners/index.ts';

/** The real KeelRunner on a scripted model over HTTP, a temp RUNTIME_HOME and a temp git repo. */
export async function startKeelHarness(script: ScriptedReply[], files: Record<string, string> = {}) {
  const model = await startMockModel({ script });
  const home = await createTempDir();
  const repo = await createTempGitRepo({ files });
  // A bare environment: nothing of the user's (RUNTIME_HOME, keys, skill dirs) reaches the runtime.
  const env = { PATH: process.env.PATH ?? '' };
  const runner = new KeelRunner({ runtimeDir: home.path, env, retry: { baseDelayMs: 5, maxDelayMs: 20 } });

  function request(extra: Partial<RunnerRequest> = {}): RunnerRequest {
    return {
      prompt: 'Do the task',
      workdir: repo.path,
      model: { model: 'mock-model', baseUrl: model.url, apiKey: 'sk-test-secret-key-123' },
      mcpServers: [],
      skillDirs: [],
      config: { id: 'keel', name: 'Keel', kind: 'keel', extra_args: [], env: {} },
      signal: new AbortController().signal,
      ...extra,
    };
  }

  return {
    model,
    home,
    repo,
    runner,
    request,
    /** Runs the runner to its outcome and collects every event it emitted. */
    async run(
      extra: Partial<RunnerRequest> = {},
    ): Promise<{ events: RunnerEvent[]; outcome: RunnerOutcome }> {
      const events: RunnerEvent[] = [];
      const outcome = await runner.run(request(extra), async (event) => {
        events.push(event);
      });
      return { events, outcome };
    },
    async [Symbol.asyncDispose]() {
      await model.close();
      await repo.remove();
      await home.remove();
    },
  };
}

/** Events without the parts a test cannot predict (ids, contents): their type, plus kind and path of tool events. */
export function shapeOf(events: RunnerEvent[]): string[] {
  return events
    .filter((event) => event.type !== 'text_delta' && event.type !== 'thinking')
    .map((event) => {
      if (event.type === 'tool_call')
        return `tool_call ${event.tool_name} ${event.kind} ${event.path ?? '-'}`;
      if (event.type === 'tool_result') return `tool_result ${event.tool_name} ${event.kind} ${event.ok}`;
      if (event.type === 'message') return `message ${event.role}`;
      if (event.type === 'error') return `error ${event.error.code}`;
      return event.type;
    });
}
