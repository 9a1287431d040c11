import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createTempDir, createTempGitRepo, type ScriptedReply, startMockModel } from '@keel/testkit';
import type { AgentAdapter } from '../../../src/runners/cli/index.ts';
import { CliRunner, type CliRunnerOptions } from '../../../src/runners/cli/index.ts';
import type { RunnerEvent, RunnerKind, RunnerOutcome, RunnerRequest } from '../../../src/runners/index.ts';
import { agentsCacheDir } from './ensure-agents.ts';

export const secretKey = 'sk-test-secret-key-98765';

/** A bare environment: nothing of the user's (keys, config dirs) reaches the agent; PATH finds node and git. */
export function bareEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '', LANG: 'C.UTF-8', ...extra };
}

/**
 * One agent's runner against the scripted model, in a temp git workspace with `a.txt`, with private homes
 * in a temp dir (Codex's under node_modules/.cache: it refuses the temp dir) removed at the end.
 */
export async function startAgentHarness(
  adapter: AgentAdapter,
  script: (workdir: string) => ScriptedReply[],
  options: CliRunnerOptions = {},
) {
  const repo = await createTempGitRepo({ files: { 'a.txt': 'hi\n' } });
  const model = await startMockModel({ script: script(repo.path) });
  const homes = await createTempDir();
  const codexCache = join(agentsCacheDir, '..', `keel-test-homes-${process.pid}-${Date.now()}`);
  await mkdir(codexCache, { recursive: true });
  const runner = new CliRunner(adapter, {
    env: bareEnv({ HOME: homes.path, XDG_CACHE_HOME: codexCache }),
    homesDir: homes.path,
    ...options,
  });

  function request(extra: Partial<RunnerRequest> = {}): RunnerRequest {
    return {
      prompt: 'Change the greeting in a.txt',
      workdir: repo.path,
      model: { model: 'mock-model', apiKey: secretKey },
      mcpServers: [],
      skillDirs: [],
      config: configOf(adapter.kind),
      signal: new AbortController().signal,
      ...extra,
    };
  }

  return {
    model,
    repo,
    homes,
    runner,
    request,
    async run(extra: Partial<RunnerRequest> = {}) {
      return collect(runner, request(extra));
    },
    async [Symbol.asyncDispose]() {
      await model.close();
      await repo.remove();
      await homes.remove();
      await rm(codexCache, { recursive: true, force: true });
    },
  };
}

export function configOf(
  kind: RunnerKind,
  extra: Partial<RunnerRequest['config']> = {},
): RunnerRequest['config'] {
  return { id: kind, name: kind, kind, extra_args: [], env: {}, ...extra };
}

/** Runs to the outcome, collecting every event. */
export async function collect(
  runner: CliRunner,
  request: RunnerRequest,
): Promise<{ events: RunnerEvent[]; outcome: RunnerOutcome }> {
  const events: RunnerEvent[] = [];
  const outcome = await runner.run(request, async (event) => {
    events.push(event);
  });
  return { events, outcome };
}

/** Event types, plus tool name, kind and path of tool events: what a test can predict. */
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

/** A recorded request's JSON body, as an object to look into. */
export function bodyOf(request: { body: unknown } | undefined): Record<string, unknown> {
  return (request?.body ?? {}) as Record<string, unknown>;
}
