// long-running: the whole flow with opencode, a large third-party program
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { createRunnerRegistry } from '../../src/runners/index.ts';
import { startWorkbench, tempDir } from '../harness.ts';
import { agentPackages, ensureAgent } from '../runners/cli/ensure-agents.ts';
import { type FlowRun, fullFlow } from './agent-flow.ts';
import { planningReplies } from './agent-script.ts';
import { twoRepositories } from './flow-helpers.ts';

// Issue #10: the end-to-end flow with a command-line runner in place of the SDK runner. Every AI turn of
// every stage is one `opencode run --format json` process (the real opencode-ai, pinned), which talks to
// the scripted model in chat completions with the model, base URL and key the workbench's Settings hold.

const version = agentPackages.opencode.spec.split('@').at(-1);
let binary: string;
beforeAll(async () => {
  binary = join(await ensureAgent('opencode'), 'node_modules', '.bin', 'opencode');
}, 600_000);

describe('the five-stage flow with the opencode command-line runner as the global default', () => {
  test('knowledge, init, plan, todos, coding in both repositories, commit message, pushed branches', {
    timeout: 600_000,
  }, async () => {
    const started = Date.now();
    const repos = twoRepositories(tempDir('agents-cli-repos'));
    // Nothing of the user's reaches the agent: PATH finds git, each session gets its own home under `homesDir`.
    const env = { PATH: process.env.PATH ?? '', LANG: 'C.UTF-8', HOME: tempDir('agents-cli-home') };
    const runners = createRunnerRegistry({
      keel: { env: { ...process.env, RUNTIME_HOME: tempDir('agents-cli-runtime') } },
      env,
      homesDir: tempDir('agents-cli-homes'),
    });
    await using wb = await startWorkbench(planningReplies(), { workbench: { runners } });
    const configId = 'opencode-cli';
    const settings = await wb.api('PUT', '/api/settings', {
      runner_configs: [{ id: configId, name: 'opencode (CLI)', kind: 'opencode', binary_path: binary }],
      default_runner: configId,
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    expect(settings.body.default_runner).toBe(configId);
    const check = (await wb.api('GET', '/api/settings/check')).body;
    expect(check.runners).toContainEqual({ kind: 'opencode', config_id: configId, usable: true, version });

    const run: FlowRun = { wb, repos, configId, kind: 'opencode', label: 'opencode cli' };
    await fullFlow(run);

    // opencode spoke chat completions with the key from Settings. It never asked for a title (the runner
    // passes --title), so no reply was taken by one: every scripted reply went to its stage.
    const requests = wb.model.requests.filter((request) => request.path !== '/v1/models');
    expect(requests.every((request) => request.protocol === 'chat')).toBe(true);
    expect(requests.every((request) => request.headers.authorization === 'Bearer sk-test-secret')).toBe(true);
    expect(wb.model.remaining).toBe(0);
    console.info(`[opencode cli] whole flow ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
});
