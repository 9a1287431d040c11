import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTempGitRepo, startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { keel, startKeel, waitFor } from './keel-process.ts';
import { scenario } from './scenario.ts';

describe('keel runs, across processes', () => {
  test('a run started by `keel run` is listed, watched live and cancelled by other keel processes', async () => {
    await using model = await startMockModel({ script: [{ text: 'word '.repeat(600), chunkDelayMs: 25 }] });
    await using repo = await createTempGitRepo({ files: { 'a.txt': 'a' } });
    const home = await mkdtemp(join(tmpdir(), 'keel-runs-home-'));
    const env = { RUNTIME_HOME: home, RUNTIME_MODEL: 'mock-model', RUNTIME_MODEL_BASE_URL: model.url };
    try {
      const running = startKeel(['run', 'talk for a long time', '-w', repo.path], env);

      const runId = await waitFor(async () => {
        const out = await keel(['runs', 'list', '--status', 'running', '--json'], env);
        if (out.code !== 0) throw new Error(`keel runs list failed: ${out.stderr}`);
        return (JSON.parse(out.stdout) as { runs: { id: string }[] }).runs[0]?.id;
      });
      expect(runId).toMatch(/^run_/);

      const watcher = startKeel(['runs', 'watch', runId], env);
      await waitFor(() => (watcher.output.stdout.includes('word word') ? true : undefined));

      const cancel = await keel(['runs', 'cancel', runId], env);
      expect(cancel).toMatchObject({ code: 0, stdout: `Cancel requested for ${runId}.\n` });

      const ran = await running.done;
      expect(ran.code).toBe(130);
      const watched = await watcher.done;
      expect(watched.code).toBe(1);
      expect(watched.stderr).toContain('Cancelled.');

      const shown = await keel(['runs', 'show', runId], env);
      expect(shown.stdout).toMatch(/^Status +cancelled \(CANCELLED: /m);
      expect(shown.stdout).toMatch(/^ {2}stp_\w+ +model_turn +/m);

      const listed = await keel(['runs', 'list'], env);
      expect(listed.stdout).toMatch(new RegExp(`^${runId}  cancelled  .*talk for a long time`, 'm'));

      // Replaying a finished run gives every event once, with a gapless sequence, cancelled last.
      const replay = await keel(['runs', 'watch', runId, '--json'], env);
      const events = replay.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { seq: number; type: string });
      expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
      expect(events[0]?.type).toBe('session_start');
      expect(events.at(-1)?.type).toBe('cancelled');

      // From a cursor: only what came after it.
      const tail = await keel(['runs', 'watch', runId, '--json', '--after', String(events.length - 1)], env);
      expect(tail.stdout.trim().split('\n')).toHaveLength(1);

      // Cancel applies to any run: an ended one is answered, unchanged.
      const again = await keel(['runs', 'cancel', runId], env);
      expect(again).toMatchObject({
        code: 0,
        stdout: `${runId} has already ended (cancelled): nothing to cancel.\n`,
      });
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }, 60_000);

  test('a reader that closes the pipe early (| head) is not an error', async () => {
    await using s = await scenario([{ text: 'x' }, { text: 'x' }, { text: 'x' }]);
    for (let i = 0; i < 3; i++) await keel(['run', `run ${i}`, '-w', s.repo.path], s.env);
    const reader = startKeel(['runs', 'list', '--json'], s.env);
    reader.child.stdout.destroy();
    const outcome = await reader.done;
    expect(outcome.stderr).not.toContain('EPIPE');
    expect(outcome.code).toBe(0);
  });

  test('unknown runs and bad options get clear errors', async () => {
    const home = await mkdtemp(join(tmpdir(), 'keel-runs-home-'));
    try {
      const missing = await keel(['runs', 'watch', 'run_nope'], { RUNTIME_HOME: home });
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain("Error [RUN_NOT_FOUND]: Run 'run_nope' does not exist.");
      const badStatus = await keel(['runs', 'list', '--status', 'sleeping'], { RUNTIME_HOME: home });
      expect(badStatus.code).toBe(1);
      expect(badStatus.stderr).toContain(
        'must be one of queued, running, waiting, paused, succeeded, failed, cancelled',
      );
      for (const args of [
        ['runs', 'show', 'run_nope'],
        ['runs', 'metrics', 'run_nope'],
        ['runs', 'retry', 'run_nope'],
        ['runs', 'recover', 'run_nope'],
        ['timeline', 'show', 'run_nope'],
        ['timeline', 'checkpoints', 'run_nope'],
        ['artifacts', 'list', '--run-id', 'run_nope'],
      ]) {
        const out = await keel(args, { RUNTIME_HOME: home });
        expect({ args, code: out.code, stderr: out.stderr }).toEqual({
          args,
          code: 1,
          stderr: "Error [RUN_NOT_FOUND]: Run 'run_nope' does not exist.\n",
        });
      }
      const fork = await keel(['runs', 'fork', 'chk_nope'], { RUNTIME_HOME: home });
      expect(fork.stderr).toBe("Error [CHECKPOINT_NOT_FOUND]: Checkpoint 'chk_nope' does not exist.\n");
      const artifact = await keel(['artifacts', 'show', 'art_nope'], { RUNTIME_HOME: home });
      expect(artifact.stderr).toBe("Error [ARTIFACT_NOT_FOUND]: Artifact 'art_nope' does not exist.\n");
      const empty = await keel(['runs', 'list'], { RUNTIME_HOME: home });
      expect(empty.stdout).toBe('No runs yet.\n');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
    // Thirteen keel processes one after another: slower than one test's default budget on a busy machine.
  }, 60_000);
});
