import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { waitForFileCommand } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { jsonLines, keel, keelJson, startKeel, waitFor } from './keel-process.ts';
import { scenario } from './scenario.ts';

interface Run {
  id: string;
  status: string;
  attempt: number;
  forked_from: { run_id: string; checkpoint_id: string } | null;
}

describe('keel runs controls, across processes', () => {
  test('a run whose process died is reported orphaned by watch, and recover finishes it', async () => {
    await using s = await scenario([{ text: 'word '.repeat(600), chunkDelayMs: 25 }]);
    const running = startKeel(['run', 'talk for a long time', '-w', s.repo.path], s.env);
    const runId = await waitFor(async () => {
      const { runs } = await keelJson<{ runs: Run[] }>(['runs', 'list', '--status', 'running'], s.env);
      return runs[0]?.id;
    });
    const watcher = startKeel(['runs', 'watch', runId], s.env);
    await waitFor(() => (watcher.output.stdout.includes('word word') ? true : undefined));
    running.child.kill('SIGKILL');
    await running.done;

    // A watcher that was following notices the worker is gone, as does a new one.
    const followed = await watcher.done;
    expect(followed.code).toBe(1);
    expect(followed.stderr).toContain(`Run ${runId} is orphaned`);
    const watch = await keel(['runs', 'watch', runId], s.env);
    expect(watch.code).toBe(1);
    expect(watch.stderr).toContain(`Run ${runId} is orphaned`);
    expect(watch.stderr).toContain(`keel runs recover ${runId}`);

    s.model.push({ text: 'Recovered.' });
    const recovered = await keel(['runs', 'recover', runId], s.env);
    expect(recovered.stderr).not.toContain('Error');
    expect(recovered).toMatchObject({ code: 0, stdout: 'Recovered.\n' });
    const again = await keel(['runs', 'recover', runId], s.env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^Error \[INVALID_STATE\]: /m);
  }, 60_000);

  test('kill -9 after a checkpoint: recover continues from it without running the finished tool again', async () => {
    await using s = await scenario(
      [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'log.txt', content: 'once\n' } }] },
        { when: { lastRole: 'tool' }, text: 'thinking '.repeat(600), chunkDelayMs: 25 },
      ],
      { files: { 'log.txt': '' } },
    );
    const running = startKeel(['run', 'log once', '-w', s.repo.path], s.env);
    await waitFor(() => (running.output.stdout.includes('thinking thinking') ? true : undefined));
    running.child.kill('SIGKILL');
    await running.done;
    const [run] = (await keelJson<{ runs: Run[] }>(['runs', 'list'], s.env)).runs;
    expect(run?.status).toBe('running');

    s.model.push({ when: { lastRole: 'tool' }, text: 'Logged it.' });
    const recovered = await keel(['runs', 'recover', run!.id], s.env);
    expect(recovered).toMatchObject({ code: 0, stdout: 'Logged it.\n' });
    const events = jsonLines<{ seq: number; type: string }>(
      (await keel(['runs', 'watch', run!.id, '--json'], s.env)).stdout,
    );
    expect(events.map((record) => record.seq)).toEqual(events.map((_, index) => index + 1));
    // The write finished before the kill and was checkpointed: it ran once.
    expect(events.filter((record) => record.type === 'tool_call')).toHaveLength(1);
    expect(events.filter((record) => record.type === 'session_start')).toHaveLength(1);
    expect(events.at(-1)?.type).toBe('done');
    const show = await keelJson<{ run: Run; steps: { kind: string; status: string }[] }>(
      ['runs', 'show', run!.id, '--json'],
      s.env,
    );
    expect(show.run.status).toBe('succeeded');
    expect(show.steps.map((step) => `${step.kind}:${step.status}`)).toEqual([
      'model_turn:succeeded',
      'tool_batch:succeeded',
      'model_turn:abandoned',
      'model_turn:succeeded',
    ]);
  }, 60_000);

  test('retry runs a failed run again; fork, pause and resume continue from a checkpoint', async () => {
    await using s = await scenario([
      { error: { status: 400, message: 'bad request' } },
      { text: 'Second try.' },
    ]);
    const failed = await keel(['run', 'say something', '-w', s.repo.path], s.env);
    expect(failed.code).toBe(1);
    const [run] = (await keelJson<{ runs: Run[] }>(['runs', 'list', '--status', 'failed'], s.env)).runs;

    const retried = await keel(['runs', 'retry', run!.id], s.env);
    expect(retried.stderr).not.toContain('Error');
    expect(retried).toMatchObject({ code: 0, stdout: 'Second try.\n' });
    expect(retried.stderr).toContain(`Continuing ${run!.id}, attempt 2.`);
    const metrics = await keelJson<{ status: string; retries: { run: number } }>(
      ['runs', 'metrics', run!.id],
      s.env,
    );
    expect(metrics).toMatchObject({ status: 'succeeded', retries: { run: 1 } });
    const metricsText = await keel(['runs', 'metrics', run!.id], s.env);
    expect(metricsText.stdout).toMatch(/^Retries +run 1, /m);
    const retryAgain = await keel(['runs', 'retry', run!.id], s.env);
    expect(retryAgain.code).toBe(1);
    expect(retryAgain.stderr).toMatch(/^Error \[INVALID_STATE\]: /m);

    const { checkpoints } = await keelJson<{
      checkpoints: { id: string; seq: number; step_id: string | null }[];
    }>(['timeline', 'checkpoints', run!.id], s.env);
    expect(checkpoints.length).toBeGreaterThan(0);
    expect(checkpoints.map((c) => c.seq)).toEqual([...checkpoints.map((c) => c.seq)].sort((a, b) => a - b));
    const timeline = await keelJson<{ run: Run; entries: { type: string }[] }>(
      ['timeline', 'show', run!.id],
      s.env,
    );
    expect(new Set(timeline.entries.map((entry) => entry.type))).toEqual(new Set(['step', 'checkpoint']));

    // Forked after the model's answer: the new run needs no model call, and shows the answer it inherits.
    const fork = await keelJson<{ run: Run }>(['runs', 'fork', checkpoints[0]!.id, '--detach'], s.env);
    expect(fork.run).toMatchObject({ status: 'queued', forked_from: { run_id: run!.id } });
    const paused = await keel(['runs', 'pause', fork.run.id], s.env);
    expect(paused).toMatchObject({ code: 0, stdout: `Paused ${fork.run.id}.\n` });
    const resumed = await keel(['runs', 'resume', fork.run.id], s.env);
    expect(resumed.stderr).not.toContain('Error');
    expect(resumed).toMatchObject({ code: 0, stdout: 'Second try.\n' });
    expect(s.model.chatRequests).toHaveLength(2);
    const resumeAgain = await keel(['runs', 'resume', fork.run.id], s.env);
    expect(resumeAgain.code).toBe(1);
    expect(resumeAgain.stderr).toMatch(/^Error \[INVALID_STATE\]: /m);

    // A queued run and a worker: the worker takes it and says so, one line per run.
    const queued = await keelJson<{ run: Run }>(['runs', 'fork', checkpoints[0]!.id, '--detach'], s.env);
    const worker = startKeel(['worker', '--idle-ms', '50'], s.env);
    await waitFor(() => (worker.output.stdout.includes(`✓ ${queued.run.id}  succeeded`) ? true : undefined));
    expect(worker.output.stdout).toMatch(new RegExp(`^▶ ${queued.run.id}  attempt 1  say something$`, 'm'));
    worker.child.kill('SIGINT');
    expect((await worker.done).code).toBe(0);
    const watched = await keel(['runs', 'watch', queued.run.id, '--json'], s.env);
    expect(jsonLines<{ type: string }>(watched.stdout).at(-1)?.type).toBe('done');
  }, 60_000);

  test('keel runs input sends a running run a message its model sees next turn', async () => {
    await using s = await scenario([
      // Held inside this command until the test creates `go`: the message surely arrives mid-run.
      { toolCalls: [{ name: 'exec_command', arguments: { command: waitForFileCommand('go') } }] },
      { when: { lastRole: 'user' }, text: 'Will do.' },
    ]);
    const running = startKeel(['run', 'look around', '-w', s.repo.path], s.env);
    await waitFor(() => (running.output.stderr.includes('● exec_command') ? true : undefined));
    const runId = await waitFor(async () => {
      const { runs } = await keelJson<{ runs: Run[] }>(['runs', 'list', '--status', 'running'], s.env);
      return runs[0]?.id;
    });
    const sent = await keel(['runs', 'input', runId, 'also', 'read', 'the', 'README'], s.env);
    expect(sent).toMatchObject({
      code: 0,
      stdout: `Sent to ${runId}: the model sees it at the run's next turn.\n`,
    });
    await writeFile(join(s.repo.path, 'go'), '');
    const done = await running.done;
    expect(done).toMatchObject({ code: 0, stdout: expect.stringContaining('Will do.') });
    expect(done.stderr).toContain('» you: also read the README');
    expect(s.model.chatRequests[1]?.messages?.at(-1)).toEqual({
      role: 'user',
      content: 'also read the README',
    });

    const late = await keel(['runs', 'input', runId, 'too late'], s.env);
    expect(late.code).toBe(1);
    expect(late.stderr).toMatch(/^Error \[INVALID_STATE\]: /m);
  }, 60_000);
});
