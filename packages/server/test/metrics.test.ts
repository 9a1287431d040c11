import { createRuntime } from '@keel/runtime';
import { describe, expect, test } from 'vitest';
import { startServer } from './harness.ts';

const usage = { prompt_tokens: 100, completion_tokens: 50 };
// $1000 and $2000 per million tokens: each scripted turn costs 100 × 0.001 + 50 × 0.002 = $0.20.
const pricing = { 'mock-model': { input_per_million: 1000, output_per_million: 2000 } };

describe('GET /metrics', () => {
  test('an empty store: zero runs, tokens and cost, and the uptime', async () => {
    await using s = await startServer([]);
    const { status, body } = await s.api('GET', '/metrics');
    expect(status).toBe(200);
    expect(body).toEqual({
      total_runs: 0,
      total_tokens: 0,
      total_cost_usd: 0,
      uptime_seconds: expect.any(Number),
    });
    expect(body.uptime_seconds).toBeGreaterThanOrEqual(0);
  });

  test('sums runs, tokens and cost over every run of the store, across pages of 100', async () => {
    await using s = await startServer(
      [
        { text: 'one', usage },
        { text: 'two', usage },
        { text: 'three', usage },
      ],
      { config: { pricing } },
    );
    for (const prompt of ['a', 'b', 'c']) {
      const { body: run } = await s.api('POST', '/runtime/runs', { prompt, workdir: s.repo.path });
      const done = await s.until(run.id, (each) => each.status === 'succeeded');
      expect(done).toMatchObject({ usage: { total_tokens: 150 }, cost_usd: expect.closeTo(0.2, 9) });
    }
    expect((await s.api('GET', '/metrics')).body).toMatchObject({
      total_runs: 3,
      total_tokens: 450,
      total_cost_usd: 0.6,
    });

    // 150 more runs, recorded straight into the same store (another process would do the same).
    const sdk = createRuntime({ env: s.env, workdir: s.repo.path });
    try {
      const store = await sdk.store();
      for (let i = 0; i < 150; i++) {
        const run = await store.createRun({
          session_id: null,
          workdir: s.repo.path,
          prompt: `p${i}`,
          workflow: {},
          input: {},
        });
        await store.addUsage(run.id, { input_tokens: 1, output_tokens: 1, total_tokens: 2 }, 0.001);
      }
    } finally {
      await sdk.close();
    }
    expect((await s.api('GET', '/metrics')).body).toMatchObject({
      total_runs: 153,
      total_tokens: 750,
      total_cost_usd: 0.75,
    });
  });
});
