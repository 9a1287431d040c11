import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockModel, startMockModel } from '@keel/testkit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { crashScript } from './crash-scenario.ts';
import { checkTrial, type Reference, runReference } from './crash-suite.ts';
import { prepareTrial, type Supervised, superviseRun } from './crash-trial.ts';
import type { KillPlan } from './kill-plan.ts';

// The bugs the seeded crash trials found, each pinned to the kill point that shows it (SQLite).

describe('crash regressions', () => {
  let model: MockModel;
  let root: string;
  let reference: Reference;

  beforeAll(async () => {
    model = await startMockModel({ script: crashScript });
    root = await mkdtemp(join(tmpdir(), 'keel-crash-regressions-'));
    reference = await runReference(join(root, 'reference'), { modelUrl: model.url });
  }, 120_000);

  afterAll(async () => {
    await model?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  /** One trial killed once at `plan`, checked against every promise; returns what it saw. */
  async function killOnce(name: string, plan: KillPlan): Promise<Supervised> {
    const env = await prepareTrial(join(root, name), model.url, undefined);
    try {
      const outcome = await superviseRun(env, (kills) => (kills === 0 ? plan : undefined));
      expect(outcome.kills.map((kill) => kill.plan)).toEqual([plan]);
      expect(checkTrial(outcome, reference)).toEqual([]);
      return outcome;
    } finally {
      await env.runtime.close();
    }
  }

  const seqOf = (type: string, nth = 1) =>
    reference.events.filter((event) => event.type === type)[nth - 1]!.seq;

  test('a worker killed mid-run: the run usage counts what the dead worker spent too', async () => {
    const outcome = await killOnce('usage', {
      kind: 'append',
      armed: { kind: 'append', seq: seqOf('text_delta') },
    });
    expect(outcome.run.usage).toEqual({ input_tokens: 540, output_tokens: 90, total_tokens: 630 });
  }, 120_000);

  test('a worker killed right after it stored done: the recovered run does not announce the end twice', async () => {
    const outcome = await killOnce('after-done', {
      kind: 'append',
      armed: { kind: 'append', seq: seqOf('done') },
    });
    expect(outcome.events.filter((event) => event.type === 'done')).toHaveLength(1);
    // The gate's decision was checkpointed before done: it was not made (and saved) again.
    expect(outcome.artifacts.map((artifact) => artifact.name)).toEqual(['quality-review-0.json']);
  }, 120_000);

  test('a worker killed after its last checkpoint, before the run was recorded succeeded: one done', async () => {
    const outcome = await killOnce('after-last-checkpoint', {
      kind: 'checkpoint',
      armed: { kind: 'checkpoint', nth: reference.checkpoints },
    });
    expect(outcome.kills[0]?.events.at(-1)?.type).toBe('done');
    expect(outcome.events.filter((event) => event.type === 'done')).toHaveLength(1);
  }, 120_000);

  // Before the fix the recovered run asked again, and waited for both requests: for ever, as nobody saw the first.
  test.each([
    ['an approval node', 1],
    ["a tool call's approval", 2],
  ])(
    'a worker killed after it asked for %s, before its checkpoint: one request to decide',
    async (_what, nth) => {
      const outcome = await killOnce(`after-approval-request-${nth}`, {
        kind: 'append',
        armed: { kind: 'append', seq: seqOf('interaction_request', nth) },
      });
      expect(outcome.approvals.map((approval) => `${approval.kind}:${approval.status}`).sort()).toEqual([
        'node:approved',
        'tool:approved',
      ]);
      expect(outcome.events.filter((event) => event.type === 'interaction_request')).toHaveLength(2);
    },
    60_000,
  );
});
