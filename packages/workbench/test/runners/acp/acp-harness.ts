import { createTempDir, createTempGitRepo } from '@keel/testkit';
import { AcpRunner, type AcpRunnerOptions } from '../../../src/runners/acp/index.ts';
import type { RunnerEvent, RunnerOutcome, RunnerRequest } from '../../../src/runners/index.ts';
import { writeFakeAgent } from './fake-agent.ts';

export const secretKey = 'sk-acp-test-secret-98765';

/** The AcpRunner on a fake ACP agent (or any binary), a temp git workspace and a bare environment. */
export async function startAcpHarness(options: AcpRunnerOptions = {}) {
  const bin = await createTempDir();
  const repo = await createTempGitRepo({ files: { 'a.txt': 'original\n' } });
  const agentPath = await writeFakeAgent(bin.path);
  const runner = new AcpRunner({ env: { PATH: process.env.PATH ?? '' }, ...options });

  function request(extra: Partial<RunnerRequest> = {}, env: Record<string, string> = {}): RunnerRequest {
    return {
      prompt: 'Do the task',
      workdir: repo.path,
      model: { model: 'mock-model', apiKey: secretKey },
      mcpServers: [],
      skillDirs: [],
      config: { id: 'fake', name: 'Fake', kind: 'acp', binary_path: agentPath, extra_args: [], env },
      signal: new AbortController().signal,
      ...extra,
    };
  }

  return {
    bin,
    repo,
    runner,
    agentPath,
    request,
    /** Runs to the outcome, collecting every event; `onEvent` sees each as it comes. */
    async run(
      extra: Partial<RunnerRequest> = {},
      env: Record<string, string> = {},
      onEvent: (event: RunnerEvent) => void = () => undefined,
    ): Promise<{ events: RunnerEvent[]; outcome: RunnerOutcome; text: string }> {
      const events: RunnerEvent[] = [];
      const outcome = await runner.run(request(extra, env), async (event) => {
        events.push(event);
        onEvent(event);
      });
      const text = events.flatMap((event) => (event.type === 'text_delta' ? [event.content] : [])).join('');
      return { events, outcome, text };
    },
    async [Symbol.asyncDispose]() {
      await repo.remove();
      await bin.remove();
    },
  };
}
