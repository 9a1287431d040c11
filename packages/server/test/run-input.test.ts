import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { waitForFileCommand } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { startServer } from './harness.ts';

describe('POST /runtime/runs/{id}/input', () => {
  test("a message for a running run reaches the model's next turn; finished runs refuse", async () => {
    await using s = await startServer(
      [
        // Held inside this command until the test creates `go`: the message surely arrives mid-run.
        { toolCalls: [{ name: 'exec_command', arguments: { command: waitForFileCommand('go') } }] },
        { when: { lastRole: 'user' }, text: 'Got your note.' },
      ],
      { files: { 'a.txt': 'a' } },
    );
    const { body: run } = await s.api('POST', '/runtime/runs', { prompt: 'look', workdir: s.repo.path });
    await s.until(run.id, (each) => each.steps.some((step: { kind: string }) => step.kind === 'tool_batch'));
    const sent = await s.api('POST', `/runtime/runs/${run.id}/input`, { content: 'check a.txt too' });
    await writeFile(join(s.repo.path, 'go'), '');
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
