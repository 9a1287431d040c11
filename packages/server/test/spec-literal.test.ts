// What a literal reading of the spec asks (issue #12, item 7): an unknown route answers in the error
// shape, and `cancel` applies to any run.
import { describe, expect, test } from 'vitest';
import { startServer } from './harness.ts';

describe('spec, read literally', () => {
  test('an unknown route answers 404 NOT_FOUND in the error shape, whatever the method', async () => {
    await using s = await startServer([]);
    for (const [method, path] of [
      ['GET', '/nothing/here'],
      ['POST', '/api/projects/prj_x/explode'],
      ['DELETE', '/api/projects'],
      ['PATCH', '/api/tasks/tsk_x'],
    ] as const) {
      const answer = await s.api(method, path);
      expect(answer, `${method} ${path}`).toEqual({
        status: 404,
        body: { error: { code: 'NOT_FOUND', message: `No endpoint ${method} ${path}.` } },
      });
    }
  });

  test('cancelling a finished run is answered 200 with the run unchanged; an unknown run is 404', async () => {
    await using s = await startServer([{ text: 'Done already.' }]);
    const { body: run } = await s.api('POST', '/runtime/runs', { prompt: 'quick', workdir: s.repo.path });
    const finished = await s.until(run.id, (each) => each.status === 'succeeded');
    const cancelled = await s.api('POST', `/runtime/runs/${run.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      id: run.id,
      run_id: run.id,
      status: 'succeeded',
      error: null,
      ended_at: finished.ended_at,
      updated_at: finished.updated_at,
    });
    expect((await s.api('GET', `/runtime/runs/${run.id}`)).body.status).toBe('succeeded');
    const audit = (await s.api('GET', `/runtime/audit?run_id=${run.id}&event=run_control`)).body.entries;
    expect(audit[0]).toMatchObject({
      args_summary: 'cancel: already succeeded, nothing to do',
      success: true,
    });
    expect((await s.api('POST', '/runtime/runs/run_nope/cancel')).status).toBe(404);
  });
});
