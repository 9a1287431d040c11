import { eventually } from '@keel/testkit';
// The run controls under `runtime.runs` (beside get and list), and the old `runtime.*Run` names the CLI and
// the server call, which must stay the same operations.
import { describe, expect, test } from 'vitest';
import type { Runtime } from '../../src/index.ts';
import { startHarness } from '../harness.ts';

async function waitForStatus(runtime: Runtime, runId: string, status: string): Promise<void> {
  await eventually(async () => (await runtime.runs.get(runId)).status === status, {
    timeoutMs: 10_000,
    intervalMs: 10,
    what: `run ${runId} to become ${status}`,
  });
}

describe('runtime.runs controls', () => {
  test('pause, resume, cancel, retry and fork through runtime.runs', async () => {
    await using h = await startHarness([
      { toolCalls: [{ name: 'list_directory', arguments: {} }], delayMs: 300 },
      { when: { lastRole: 'tool' }, text: 'Listed.' },
      { when: { lastRole: 'tool' }, text: 'Forked.' },
    ]);
    const run = await h.runtime.start({ prompt: 'list', workdir: h.workdir }, { execute: false });
    const driving = h.runtime.drive(run.id);
    await waitForStatus(h.runtime, run.id, 'running');
    await h.runtime.runs.pause(run.id);
    expect((await driving)?.run.status).toBe('paused');
    expect((await h.runtime.runs.resume(run.id)).status).toBe('queued');
    expect((await h.runtime.drive(run.id))?.run.status).toBe('succeeded');

    const [first] = await h.runtime.runs.checkpoints(run.id);
    const fork = await h.runtime.runs.fork(first!.id);
    expect(fork).toMatchObject({ status: 'queued', forked_from: { run_id: run.id } });
    expect((await h.runtime.runs.cancel(fork.id)).status).toBe('cancelled');
    expect((await h.runtime.runs.retry(fork.id)).attempt).toBe(2);
    await expect(h.runtime.runs.cancel('run_nope')).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' });
  });

  test('recover through runtime.runs refuses a run whose worker is alive', async () => {
    await using h = await startHarness([{ text: 'Recovered.' }]);
    const run = await h.runtime.start({ prompt: 'hi', workdir: h.workdir }, { execute: false });
    const store = await h.runtime.store();
    expect(await store.claimRun(run.id, { owner: 'elsewhere:1:dead', leaseMs: 60_000 })).not.toBeNull();
    await expect(h.runtime.runs.recover(run.id)).rejects.toMatchObject({ code: 'INVALID_STATE' });
  });

  test('the old names do what runtime.runs does', async () => {
    await using h = await startHarness([{ text: 'Done.' }]);
    const queued = await h.runtime.start({ prompt: 'a', workdir: h.workdir }, { execute: false });
    expect((await h.runtime.pauseRun(queued.id)).status).toBe('paused');
    expect((await h.runtime.runs.resume(queued.id)).status).toBe('queued');
    expect((await h.runtime.runs.pause(queued.id)).status).toBe('paused');
    expect((await h.runtime.resumeRun(queued.id)).status).toBe('queued');
    expect((await h.runtime.cancelRun(queued.id)).status).toBe('cancelled');
    expect((await h.runtime.retryRun(queued.id)).attempt).toBe(2);
    await expect(h.runtime.recoverRun(queued.id)).rejects.toMatchObject({ code: 'INVALID_STATE' });
    await expect(h.runtime.forkRun('ckpt_nope')).rejects.toMatchObject({ code: 'CHECKPOINT_NOT_FOUND' });
  });
});
