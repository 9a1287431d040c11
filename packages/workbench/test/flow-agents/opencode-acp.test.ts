// long-running: the whole flow with opencode, a large third-party program
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startMockModel } from '@keel/testkit';
import { beforeAll, describe, expect, test } from 'vitest';
import { createRunnerRegistry } from '../../src/runners/index.ts';
import { startWorkbench, tempDir } from '../harness.ts';
import { installOpencode, opencodeHome, opencodeVersion } from '../runners/acp/opencode-setup.ts';
import { type FlowRun, fullFlow } from './agent-flow.ts';
import { planningReplies } from './agent-script.ts';
import { twoRepositories } from './flow-helpers.ts';

// Issue #10: the end-to-end flow with the ACP runner in place of the SDK runner. Every AI turn of every
// stage is one real `opencode acp` process, the workbench playing the editor (permission requests answered
// by its policy). ACP has no way to hand over a model, so opencode reads its own opencode.json: a HOME and
// XDG dirs of its own, given to it through the runner config's `env` (settings, "Runner Configs").

let binary: string;
beforeAll(async () => {
  ({ binary } = await installOpencode());
}, 300_000);

describe('the five-stage flow with the ACP runner (opencode acp) as the project default', () => {
  test('knowledge, init, plan, todos, coding in both repositories, commit message, pushed branches', {
    timeout: 600_000,
  }, async () => {
    const started = Date.now();
    const repos = twoRepositories(tempDir('agents-acp-repos'));
    const runners = createRunnerRegistry({
      keel: { env: { ...process.env, RUNTIME_HOME: tempDir('agents-acp-runtime') } },
      env: { PATH: process.env.PATH ?? '', LANG: 'C.UTF-8' },
    });
    await using wb = await startWorkbench(planningReplies(), { workbench: { runners } });
    // opencode asks its small_model for a session title beside the first turn, with the same last message:
    // a second model answers those, so they cannot take a stage's reply (as in the ACP runner's own tests).
    await using titles = await startMockModel({
      script: Array.from({ length: 60 }, () => ({ text: 'A title' })),
    });
    const { home, env } = await opencodeHome(wb.model, titles, 'sk-test-secret');
    await using _home = home;
    // opencode 1.18.33 migrates its SQLite database on first start, and concurrent first starts on one fresh
    // data dir race ("Failed query: CREATE TABLE `workspace`", exit 1: reproduced with eight concurrent
    // `opencode session list` alone). The eight knowledge layers start eight `opencode acp` at once on the
    // one data dir of the config's env, so the database is made once first, as any opencode used before has it.
    await promisify(execFile)(binary, ['session', 'list'], { env: { PATH: process.env.PATH, ...env } });
    const configId = 'opencode-acp';
    const settings = await wb.api('PUT', '/api/settings', {
      runner_configs: [
        { id: configId, name: 'opencode (ACP)', kind: 'acp', binary_path: binary, extra_args: ['acp'], env },
      ],
      // The global default stays the SDK runner: the project's choice must win over it.
      default_runner: 'keel',
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    const check = (await wb.api('GET', '/api/settings/check')).body;
    expect(check.runners).toContainEqual({
      kind: 'acp',
      config_id: configId,
      usable: true,
      version: opencodeVersion,
    });

    const run: FlowRun = { wb, repos, configId, kind: 'acp', projectRunner: configId, label: 'opencode acp' };
    await fullFlow(run);

    // Every scripted reply went to its stage, in chat completions with the key of opencode.json.
    const requests = wb.model.requests.filter((request) => request.path !== '/v1/models');
    expect(requests.every((request) => request.protocol === 'chat')).toBe(true);
    expect(requests.every((request) => request.headers.authorization === 'Bearer sk-test-secret')).toBe(true);
    expect(wb.model.remaining).toBe(0);
    console.info(`[opencode acp] whole flow ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
});
