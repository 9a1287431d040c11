import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRuntime } from '@keel/runtime';
import { waitForFileCommand } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { startServer } from './harness.ts';

const writeCall = { toolCalls: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'hello\n' } }] };

describe('the canonical runtime API over HTTP', () => {
  test('POST /runtime/runs answers 202 at once; detail, list, timeline, metrics and checkpoints follow it', async () => {
    await using s = await startServer(
      [
        { toolCalls: [{ name: 'list_directory', arguments: {} }] },
        { when: { lastRole: 'tool' }, text: 'One file.' },
      ],
      { files: { 'a.txt': 'a' } },
    );
    const started = await s.api('POST', '/runtime/runs', { prompt: 'what is here?', workdir: s.repo.path });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ id: expect.stringMatching(/^run_/), prompt: 'what is here?' });
    expect(started.body.run_id).toBe(started.body.id);
    const runId: string = started.body.id;

    const finished = await s.until(runId, (run) => run.status === 'succeeded');
    expect(finished.result).toMatchObject({ output: 'One file.' });
    expect(finished.steps.map((step: { kind: string }) => step.kind)).toEqual([
      'model_turn',
      'tool_batch',
      'model_turn',
    ]);

    const list = await s.api('GET', '/runtime/runs?limit=10');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ runs: [{ id: runId, status: 'succeeded' }], next_cursor: null });

    const checkpoints = await s.api('GET', `/runtime/runs/${runId}/checkpoints`);
    expect(checkpoints.body.checkpoints.length).toBeGreaterThanOrEqual(3);
    const timeline = await s.api('GET', `/runtime/runs/${runId}/timeline`);
    expect(timeline.body.run.id).toBe(runId);
    expect(timeline.body.entries.length).toBeGreaterThan(0);
    const metrics = await s.api('GET', `/runtime/runs/${runId}/metrics`);
    expect(metrics.body).toMatchObject({ status: 'succeeded', steps: { model_turn: 2 } });
    const artifacts = await s.api('GET', `/runtime/runs/${runId}/artifacts`);
    expect(artifacts.body).toEqual({ artifacts: [] });

    // The same store as the SDK and `keel` on this workdir: another runtime sees the run.
    const sdk = createRuntime({ env: s.env, workdir: s.repo.path });
    try {
      expect((await sdk.runs.get(runId)).status).toBe('succeeded');
    } finally {
      await sdk.close();
    }
  });

  test('pages of runs follow next_cursor, newest first', async () => {
    await using s = await startServer([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    const ids: string[] = [];
    for (const prompt of ['one', 'two', 'three']) {
      const { body } = await s.api('POST', '/runtime/runs', { prompt, workdir: s.repo.path });
      await s.until(body.id, (run) => run.status === 'succeeded');
      ids.push(body.id);
    }
    const first = await s.api('GET', '/runtime/runs?limit=2');
    expect(first.body.runs.map((run: { id: string }) => run.id)).toEqual([ids[2], ids[1]]);
    const second = await s.api('GET', `/runtime/runs?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body).toMatchObject({ runs: [{ id: ids[0] }], next_cursor: null });
    const succeeded = await s.api('GET', '/runtime/runs?status=succeeded');
    expect(succeeded.body.runs).toHaveLength(3);
  });

  test('a run waiting for approval is approved over HTTP and finishes; the audit log records it', async () => {
    await using s = await startServer([writeCall, { when: { lastRole: 'tool' }, text: 'Wrote out.txt.' }], {
      config: { security: { require_approval: ['write_file'] } },
    });
    const { body: run } = await s.api('POST', '/runtime/runs', { prompt: 'write it', workdir: s.repo.path });
    await s.until(run.id, (each) => each.status === 'waiting');
    const pending = await s.api('GET', `/runtime/approvals?run_id=${run.id}&status=pending`);
    expect(pending.body.approvals).toHaveLength(1);
    const approval = pending.body.approvals[0];
    expect(approval).toMatchObject({
      run_id: run.id,
      status: 'pending',
      detail: { tool_name: 'write_file' },
    });
    expect((await s.api('GET', `/runtime/approvals/${approval.id}`)).body.id).toBe(approval.id);

    const approved = await s.api('POST', `/runtime/approvals/${approval.id}/approve`, { reason: 'fine' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      approval: { status: 'approved' },
      run: { id: run.id, status: 'queued' },
    });
    const finished = await s.until(run.id, (each) => each.status === 'succeeded');
    expect(finished.result.output).toBe('Wrote out.txt.');
    expect(await readFile(join(s.repo.path, 'out.txt'), 'utf8')).toBe('hello\n');

    const again = await s.api('POST', `/runtime/approvals/${approval.id}/reject`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('INVALID_STATE');
    const audit = await s.api('GET', `/runtime/audit?run_id=${run.id}`);
    expect(audit.body.entries.map((entry: { event: string }) => entry.event)).toEqual(
      expect.arrayContaining(['file_write']),
    );
    expect(audit.body.total).toBeGreaterThanOrEqual(1);
  });

  test('a rejected call is told to the model, and the run goes on', async () => {
    await using s = await startServer([writeCall, { when: { lastRole: 'tool' }, text: 'Did not write.' }], {
      config: { security: { require_approval: ['write_file'] } },
    });
    const { body: run } = await s.api('POST', '/runtime/runs', { prompt: 'write it', workdir: s.repo.path });
    await s.until(run.id, (each) => each.status === 'waiting');
    const [approval] = (await s.api('GET', '/runtime/approvals?status=pending')).body.approvals;
    const rejected = await s.api('POST', `/runtime/approvals/${approval.id}/reject`, { reason: 'not now' });
    expect(rejected.body.approval).toMatchObject({ status: 'rejected' });
    const finished = await s.until(run.id, (each) => each.status === 'succeeded');
    expect(finished.result.output).toBe('Did not write.');
    expect(s.model.chatRequests[1]?.messages?.at(-1)).toMatchObject({
      content: expect.stringContaining('not now'),
    });
  });

  test('cancel, retry, pause, resume and fork work over HTTP', async () => {
    await using s = await startServer([
      { text: 'word '.repeat(400), chunkDelayMs: 20 },
      { text: 'Second time lucky.' },
      { text: 'never asked' },
    ]);
    const { body: run } = await s.api('POST', '/runtime/runs', { prompt: 'talk', workdir: s.repo.path });
    await s.until(run.id, (each) => each.status === 'running' && each.last_seq > 2);
    const cancelled = await s.api('POST', `/runtime/runs/${run.id}/cancel`);
    expect(cancelled.status).toBe(200);
    await s.until(run.id, (each) => each.status === 'cancelled');

    const paused = await s.api('POST', `/runtime/runs/${run.id}/pause`);
    expect(paused.status).toBe(409);
    expect(paused.body.error).toMatchObject({
      code: 'INVALID_STATE',
      message: expect.stringContaining('cancelled'),
    });

    const retried = await s.api('POST', `/runtime/runs/${run.id}/retry`);
    expect(retried.body).toMatchObject({ id: run.id, attempt: 2 });
    const done = await s.until(run.id, (each) => each.status === 'succeeded');
    expect(done.result.output).toBe('Second time lucky.');

    // The retried attempt's one checkpoint holds its answer: a fork from it finishes with that answer,
    // without asking the model again.
    const [checkpoint] = (await s.api('GET', `/runtime/runs/${run.id}/checkpoints`)).body.checkpoints;
    const fork = await s.api('POST', '/runtime/forks', { checkpoint_id: checkpoint.id });
    expect(fork.status).toBe(202);
    expect(fork.body.forked_from).toEqual({ run_id: run.id, checkpoint_id: checkpoint.id });
    const forked = await s.until(fork.body.id, (each) => each.status === 'succeeded');
    expect(forked.result.output).toBe('Second time lucky.');
    expect(s.model.remaining).toBe(1);

    expect((await s.api('POST', `/runtime/runs/${run.id}/resume`)).status).toBe(409);
    expect((await s.api('POST', `/runtime/runs/${run.id}/recover`)).status).toBe(409);
  });

  test('pause stops a running run at its next step boundary; resume continues it', async () => {
    await using s = await startServer([
      // Held inside this command until the test creates `go`: the pause surely arrives mid-run.
      { toolCalls: [{ name: 'exec_command', arguments: { command: waitForFileCommand('go') } }] },
      { when: { lastRole: 'tool' }, text: 'Done looking.' },
    ]);
    const { body: run } = await s.api('POST', '/runtime/runs', { prompt: 'look', workdir: s.repo.path });
    await s.until(run.id, (each) => each.steps.some((step: { kind: string }) => step.kind === 'tool_batch'));
    expect((await s.api('POST', `/runtime/runs/${run.id}/pause`)).status).toBe(200);
    await writeFile(join(s.repo.path, 'go'), '');
    // It pauses at the boundary after the running tool batch, before asking the model again.
    const paused = await s.until(run.id, (each) => each.status === 'paused');
    expect(paused.steps.map((step: { kind: string }) => step.kind)).toEqual(['model_turn', 'tool_batch']);
    expect(s.model.chatRequests).toHaveLength(1);
    const resumed = await s.api('POST', `/runtime/runs/${run.id}/resume`);
    expect(resumed.body.status).toBe('queued');
    const done = await s.until(run.id, (each) => each.status === 'succeeded');
    expect(done.result.output).toBe('Done looking.');
  });

  test('bad input gets the error shape with the right status, never a 500', async () => {
    await using s = await startServer([]);
    const cases: Array<[string, string, unknown, number, string]> = [
      ['GET', '/runtime/runs/run_nope', undefined, 404, 'RUN_NOT_FOUND'],
      ['GET', '/runtime/runs/run_nope/timeline', undefined, 404, 'RUN_NOT_FOUND'],
      ['GET', '/runtime/runs/run_nope/metrics', undefined, 404, 'RUN_NOT_FOUND'],
      ['GET', '/runtime/runs/run_nope/checkpoints', undefined, 404, 'RUN_NOT_FOUND'],
      ['GET', '/runtime/runs/run_nope/artifacts', undefined, 404, 'RUN_NOT_FOUND'],
      ['POST', '/runtime/runs/run_nope/cancel', undefined, 404, 'RUN_NOT_FOUND'],
      ['POST', '/runtime/runs/run_nope/retry', undefined, 404, 'RUN_NOT_FOUND'],
      ['POST', '/runtime/forks', { checkpoint_id: 'chk_nope' }, 404, 'CHECKPOINT_NOT_FOUND'],
      ['POST', '/runtime/forks', {}, 400, 'INVALID_PARAMS'],
      ['POST', '/runtime/approvals/apr_nope/approve', undefined, 404, 'APPROVAL_NOT_FOUND'],
      ['POST', '/runtime/approvals/apr_nope/answer', { answer: 'yes' }, 404, 'APPROVAL_NOT_FOUND'],
      ['GET', '/runtime/artifacts/art_nope', undefined, 404, 'ARTIFACT_NOT_FOUND'],
      ['POST', '/runtime/runs', { workdir: '.' }, 400, 'INVALID_PARAMS'],
      ['POST', '/runtime/runs', { prompt: 'hi' }, 400, 'INVALID_PARAMS'],
      ['POST', '/runtime/runs', { prompt: 'hi', workdir: '/no/such/dir' }, 400, 'INVALID_PARAMS'],
      ['POST', '/runtime/runs', { prompt: 'hi', workdir: '.', max_steps: 'lots' }, 400, 'INVALID_PARAMS'],
      [
        'POST',
        '/runtime/runs',
        { prompt: 'hi', workdir: '.', workflow: { root: { kind: 'nope' } } },
        400,
        'INVALID_PARAMS',
      ],
      ['POST', '/runtime/runs', '{not json', 400, 'INVALID_PARAMS'],
      ['GET', '/runtime/runs?limit=0', undefined, 400, 'INVALID_PARAMS'],
      ['GET', '/runtime/runs?status=sleeping', undefined, 400, 'INVALID_PARAMS'],
      ['GET', '/runtime/approvals?status=maybe', undefined, 400, 'INVALID_PARAMS'],
      ['GET', '/runtime/audit?since=yesterday', undefined, 400, 'INVALID_PARAMS'],
      ['GET', '/runtime/nothing', undefined, 404, 'NOT_FOUND'],
    ];
    for (const [method, path, body, status, code] of cases) {
      const response = await s.api(method, path, body);
      expect({ method, path, status: response.status, code: response.body?.error?.code }).toEqual({
        method,
        path,
        status,
        code,
      });
      expect(typeof response.body.error.message).toBe('string');
    }
  });

  test('with an API key every endpoint but /health needs the bearer token', async () => {
    await using s = await startServer([], { apiKey: 'sekret' });
    expect((await s.api('GET', '/health')).body).toMatchObject({ status: 'ok' });
    const missing = await s.api('GET', '/runtime/runs');
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe('AUTHENTICATION_FAILED');
    expect((await s.api('GET', '/runtime/runs', undefined, { authorization: 'Bearer wrong' })).status).toBe(
      401,
    );
    const allowed = await s.api('GET', '/runtime/runs', undefined, { authorization: 'Bearer sekret' });
    expect(allowed).toEqual({ status: 200, body: { runs: [], next_cursor: null } });
  });
});
