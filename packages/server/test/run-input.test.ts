import { describe, expect, test } from 'vitest';
import { startServer } from './harness.ts';

describe('POST /runtime/runs/{id}/input', () => {
  test("a message for a running run reaches the model's next turn; finished runs refuse", async () => {
    await using s = await startServer(
      [
        {
          toolCalls: [{ name: 'list_directory', arguments: {} }],
          text: 'Looking. '.repeat(40),
          chunkDelayMs: 15,
        },
        { when: { lastRole: 'user' }, text: 'Got your note.' },
      ],
      { files: { 'a.txt': 'a' } },
    );
    const { body: run } = await s.api('POST', '/runtime/runs', { prompt: 'look', workdir: s.repo.path });
    await s.until(run.id, (each) => each.status === 'running' && each.last_seq > 2);
    const sent = await s.api('POST', `/runtime/runs/${run.id}/input`, { content: 'check a.txt too' });
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({
      id: expect.stringMatching(/^inp_/),
      run_id: run.id,
      content: 'check a.txt too',
    });
    const done = await s.until(run.id, (each) => each.status === 'succeeded');
    expect(done.result.output).toBe('Got your note.');
    expect(s.model.chatRequests[1]?.messages?.at(-1)).toEqual({ role: 'user', content: 'check a.txt too' });

    const late = await s.api('POST', `/runtime/runs/${run.id}/input`, { content: 'too late' });
    expect(late).toMatchObject({ status: 409, body: { error: { code: 'INVALID_STATE' } } });
    const empty = await s.api('POST', `/runtime/runs/${run.id}/input`, { content: '' });
    expect(empty).toMatchObject({ status: 400, body: { error: { code: 'INVALID_PARAMS' } } });
    const unknown = await s.api('POST', '/runtime/runs/run_nope/input', { content: 'hi' });
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'RUN_NOT_FOUND' } } });
  });
});
