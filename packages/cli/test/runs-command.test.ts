import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTempGitRepo, startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { keel, startKeel, waitFor } from './keel-process.ts';

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

      const again = await keel(['runs', 'cancel', runId], env);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('Error [INVALID_STATE]');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }, 60_000);

  test('unknown runs and bad options get clear errors', async () => {
    const home = await mkdtemp(join(tmpdir(), 'keel-runs-home-'));
    try {
      const missing = await keel(['runs', 'watch', 'run_nope'], { RUNTIME_HOME: home });
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain("Error [RUN_NOT_FOUND]: Run 'run_nope' does not exist.");
      const badStatus = await keel(['runs', 'list', '--status', 'sleeping'], { RUNTIME_HOME: home });
      expect(badStatus.code).toBe(1);
      expect(badStatus.stderr).toContain('must be one of running, succeeded, failed, cancelled');
      const empty = await keel(['runs', 'list'], { RUNTIME_HOME: home });
      expect(empty.stdout).toBe('No runs yet.\n');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
