import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { KeelError, type Workflow } from '../src/index.ts';
import { parseWorkflow } from '../src/internal.ts';
import { fakeClock } from './fake-clock.ts';
import { reviewScript, reviewWorkflow } from './fixtures/review-workflow.ts';
import { startHarness } from './harness.ts';

describe('workflows', () => {
  test('parallel branches, a join, a condition, a fallback and a gate run to a deterministic result', async () => {
    await using h = await startHarness(reviewScript, { 'README.md': 'hello\n' });
    const workflow = reviewWorkflow;
    const events: string[] = [];
    const result = await h.runtime.run(
      { prompt: 'the app', workdir: h.workdir },
      { workflow, onEvent: (event) => void events.push(event.type) },
    );
    expect(JSON.parse(result.output)).toEqual({
      joined: 'API looks fine.\n\nUI needs work.',
      fix: 'UI fixed.',
    });
    expect(events[0]).toBe('session_start');
    expect(events.at(-1)).toBe('done');
    expect(h.model.remaining).toBe(0);

    const run = await h.runtime.runs.get(result.run_id);
    expect(run.status).toBe('succeeded');
    expect((run.result as { outputs: Record<string, unknown> }).outputs).toMatchObject({
      api: 'API looks fine.',
      ui: 'UI needs work.',
      fixer: 'UI fixed.',
      gate: { passed: true, repairs: 0 },
    });
    // The branch not taken never ran.
    expect((run.result as { outputs: Record<string, unknown> }).outputs.nothing).toBeUndefined();

    const steps = await h.runtime.runs.steps(run.id);
    expect(
      steps
        .filter((step) => step.kind === 'model_turn')
        .map((step) => step.node_id)
        .sort(),
    ).toEqual(['api', 'fixer', 'ui']);
    const failedTool = steps.find((step) => step.node_id === 'read-missing');
    expect(failedTool).toMatchObject({ kind: 'tool', status: 'failed' });
    const checkpoints = await h.runtime.runs.checkpoints(run.id);
    expect(checkpoints.length).toBeGreaterThanOrEqual(3);
    const seqs = checkpoints.map((checkpoint) => checkpoint.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);

    // The gate saved its decision as a review artifact.
    const [review] = await h.runtime.runs.artifacts(run.id);
    expect(review).toMatchObject({ kind: 'review', node_id: 'gate', media_type: 'application/json' });
    const payload = JSON.parse(Buffer.from(await h.runtime.artifacts.read(review!.id)).toString('utf8'));
    expect(payload).toMatchObject({ gate: 'gate', passed: true, repairs: 0 });

    const metrics = await h.runtime.runs.metrics(run.id);
    expect(metrics).toMatchObject({ status: 'succeeded', gates: { passed: 1, failed: 0 }, artifacts: 1 });
    expect(metrics.steps.model_turn).toBe(3);
    const timeline = await h.runtime.runs.timeline(run.id);
    expect(
      timeline.entries.some((entry) => entry.type === 'artifact' && entry.href.endsWith(review!.id)),
    ).toBe(true);
  });

  test('a gate repairs and checks again, at most max_repairs times', async () => {
    await using h = await startHarness([
      { when: { lastMessageIncludes: 'Write the report' }, text: 'draft' },
      { when: { lastMessageIncludes: 'Improve' }, text: 'improved' },
      { when: { lastMessageIncludes: 'Write the report' }, text: 'final report' },
    ]);
    const workflow: Workflow = {
      root: {
        id: 'quality',
        kind: 'gate',
        body: { id: 'writer', kind: 'agent', prompt: 'Write the report' },
        check: { output_of: 'writer', contains: 'final' },
        repair: { id: 'improver', kind: 'agent', prompt: 'Improve: {{nodes.writer.output}}' },
        max_repairs: 1,
      },
    };
    const result = await h.runtime.run({ prompt: 'go', workdir: h.workdir }, { workflow });
    expect(JSON.parse(result.output)).toEqual({ passed: true, repairs: 1 });
    const artifacts = await h.runtime.runs.artifacts(result.run_id);
    const decisions = await Promise.all(
      artifacts.map(async (a) => JSON.parse(Buffer.from(await h.runtime.artifacts.read(a.id)).toString())),
    );
    expect(decisions.map((d) => d.passed)).toEqual([false, true]);
  });

  test('a node that times out is retried per its policy', async () => {
    await using h = await startHarness([
      { when: { lastMessageIncludes: 'slow' }, text: 'too late', delayMs: 5_000 },
      { when: { lastMessageIncludes: 'slow' }, text: 'in time' },
    ]);
    const workflow: Workflow = {
      root: {
        id: 'slowpoke',
        kind: 'agent',
        prompt: 'be slow',
        timeout_ms: 300,
        retry: { max_attempts: 2 },
      },
    };
    const events: { type: string; error?: string }[] = [];
    const result = await h.runtime.run(
      { prompt: 'x', workdir: h.workdir },
      { workflow, onEvent: (event) => void events.push(event as never) },
    );
    expect(result.output).toBe('in time');
    const retry = events.find((event) => event.type === 'retry');
    expect(retry).toMatchObject({ attempt: 2, max_attempts: 2 });
    expect(retry?.error).toMatch(/node 'slowpoke': Node 'slowpoke' timed out after 300 ms/);
  });

  test('a node that keeps timing out fails the run with TIMEOUT', async () => {
    await using h = await startHarness([{ text: 'never', delayMs: 5_000 }]);
    const workflow: Workflow = { root: { id: 'stuck', kind: 'agent', prompt: 'hang', timeout_ms: 200 } };
    const { error, types } = await h.collect({ prompt: 'x' }, undefined, workflow);
    expect(KeelError.is(error) && error.code).toBe('TIMEOUT');
    expect(types.at(-1)).toBe('error');
    const [run] = await h.runtime.runs.list();
    expect(run).toMatchObject({ status: 'failed', error: { code: 'TIMEOUT' } });
  });

  test('a time budget stops the run with a clear reason', async () => {
    const clock = fakeClock();
    await using h = await startHarness([{ text: 'never', delayMs: 60_000 }], {}, { now: clock.now });
    const workflow: Workflow = {
      root: { id: 'a', kind: 'agent', prompt: 'work' },
      budgets: { max_duration_ms: 600_000 },
    };
    // Ten minutes pass on the run's clock while the model thinks: no test waits that long on a real one.
    h.runtime.events.on('session_start', () => clock.advance(600_001));
    const { error, events } = await h.collect({ prompt: 'x' }, undefined, workflow);
    expect(KeelError.is(error) && error.code).toBe('BUDGET_EXCEEDED');
    const breaker = events.find((event) => event.type === 'circuit_breaker');
    expect(breaker).toMatchObject({ reason: expect.stringMatching(/Time budget exceeded.*600000 ms/) });
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'BUDGET_EXCEEDED' } });
  });

  test('a step budget across several agents trips the breaker', async () => {
    await using h = await startHarness([
      { toolCalls: [{ name: 'list_directory', arguments: {} }] },
      { text: 'one done' },
      { toolCalls: [{ name: 'list_directory', arguments: {} }] },
      { text: 'never reached' },
    ]);
    const workflow: Workflow = {
      root: {
        id: 's',
        kind: 'sequence',
        steps: [
          { id: 'first', kind: 'agent', prompt: 'one' },
          { id: 'second', kind: 'agent', prompt: 'two' },
        ],
      },
      budgets: { max_steps: 1 },
    };
    const { error, events } = await h.collect({ prompt: 'x' }, undefined, workflow);
    expect(KeelError.is(error) && error.code).toBe('CIRCUIT_BREAKER');
    expect(events.find((event) => event.type === 'circuit_breaker')).toMatchObject({
      reason: 'step limit exceeded: 2 > 1 tool-call steps',
    });
  });

  test('budgets apply in the order request > workflow > configuration', async () => {
    const twoSteps = () => [
      { toolCalls: [{ name: 'list_directory', arguments: {} }] },
      { text: 'one done' },
      { toolCalls: [{ name: 'list_directory', arguments: {} }] },
      { text: 'two done' },
    ];
    const workflow: Workflow = {
      root: {
        id: 's',
        kind: 'sequence',
        steps: [
          { id: 'first', kind: 'agent', prompt: 'one' },
          { id: 'second', kind: 'agent', prompt: 'two' },
        ],
      },
      budgets: { max_steps: 1 },
    };
    // The request's max_steps wins over the workflow's: both steps run.
    await using overridden = await startHarness(twoSteps());
    const allowed = await overridden.collect({ prompt: 'x', max_steps: 5 }, undefined, workflow);
    expect(allowed.error).toBeUndefined();
    expect(allowed.events.at(-1)).toMatchObject({ type: 'done' });

    // The workflow's wins over configuration: the second step trips the breaker.
    await using configured = await startHarness(twoSteps());
    await mkdir(join(configured.workdir, '.runtime'), { recursive: true });
    await writeFile(
      join(configured.workdir, '.runtime', 'config.json'),
      JSON.stringify({ circuit_breaker: { max_steps: 5 } }),
    );
    const tripped = await configured.collect({ prompt: 'x' }, undefined, workflow);
    expect(KeelError.is(tripped.error) && tripped.error.code).toBe('CIRCUIT_BREAKER');
    expect(tripped.events.find((event) => event.type === 'circuit_breaker')).toMatchObject({
      reason: 'step limit exceeded: 2 > 1 tool-call steps',
    });
  });

  test('a bad workflow is refused before any run exists', async () => {
    await using h = await startHarness([]);
    const bad = {
      root: {
        id: 'x',
        kind: 'sequence',
        steps: [
          { id: 'a', kind: 'agent', prompt: 'p' },
          { id: 'a', kind: 'join', from: ['nope'] },
        ],
      },
    };
    expect(() => parseWorkflow(bad)).toThrow(
      /node id 'a' is used more than once; node 'a' refers to unknown node 'nope'/,
    );
    await expect(
      h.runtime.run({ prompt: 'x', workdir: h.workdir }, { workflow: bad as never }),
    ).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
    });
    await expect(
      h.runtime.run(
        { prompt: 'x', workdir: h.workdir },
        { workflow: { root: { id: 'a', kind: 'dance' } } as never },
      ),
    ).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
    expect(await h.runtime.runs.list()).toEqual([]);
  });
});
