import { describe, expect, test } from 'vitest';
import { startWorkbench, tempDir } from '../harness.ts';
import { type FlowRun, fullFlow } from './agent-flow.ts';
import { planningReplies } from './agent-script.ts';
import { twoRepositories } from './flow-helpers.ts';

// Issue #27: the five stages through the built-in "Keel (ACP)" runner config: every AI turn is one real
// `keel acp` process (the `keel` on PATH: this install's), the workbench playing the editor. The model comes
// from the workbench's settings through keel's environment, as ACP cannot hand a model over.

describe('the five-stage flow with Keel over ACP (the built-in keel-acp runner config)', () => {
  test('knowledge, init, plan, todos, coding in both repositories, commit message, pushed branches', {
    timeout: 600_000,
  }, async () => {
    const started = Date.now();
    const repos = twoRepositories(tempDir('keel-acp-repos'));
    await using wb = await startWorkbench(planningReplies(), {
      env: { RUNTIME_HOME: tempDir('keel-acp-home') },
    });
    const check = (await wb.api('GET', '/api/settings/check')).body;
    expect(check.runners).toContainEqual(
      expect.objectContaining({ kind: 'acp', config_id: 'keel-acp', usable: true }),
    );

    const run: FlowRun = {
      wb,
      repos,
      configId: 'keel-acp',
      kind: 'acp',
      projectRunner: 'keel-acp',
      tools: 'keel',
      label: 'keel acp',
    };
    await fullFlow(run);

    // Every scripted reply went to its stage, sent by keel acp with the workbench's model key.
    const requests = wb.model.requests.filter((request) => request.path !== '/v1/models');
    expect(requests.length).toBeGreaterThan(0);
    expect(wb.model.remaining).toBe(0);
    console.info(`[keel acp] whole flow ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
});
