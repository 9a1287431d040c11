import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eventually, waitForFileCommand } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { KeelError, type RuntimeEvent } from '../src/index.ts';
import { startHarness } from './harness.ts';

describe('user input sent to a running run', () => {
  test('a message sent mid-run is shown to the model at its next turn, confirmed by user_input_received', async () => {
    await using h = await startHarness(
      [
        // The run waits inside this command until the test creates `go`: the message surely arrives mid-run.
        { toolCalls: [{ name: 'exec_command', arguments: { command: waitForFileCommand('go') } }] },
        { when: { lastRole: 'user' }, text: 'Noted: I will also check the README.' },
      ],
      { 'README.md': 'hi' },
    );
    const events: RuntimeEvent[] = [];
    const run = await h.runtime.start(
      { prompt: 'look around', workdir: h.workdir },
      { onEvent: (event) => void events.push(event) },
    );
    // From another runtime on the same store, as another process (or the WebSocket) would.
    const other = h.other();
    try {
      await eventually(() => events.some((event) => event.type === 'tool_call'), {
        timeoutMs: 10_000,
        what: 'the run to call exec_command',
      });
      const input = await other.sendInput(run.id, 'also check the README');
      expect(input).toMatchObject({ run_id: run.id, content: 'also check the README', consumed_at: null });
      await writeFile(join(h.workdir, 'go'), '');
    } finally {
      await other.close();
    }
    await eventually(() => events.some((event) => event.type === 'done'), {
      timeoutMs: 10_000,
      what: 'the run to finish',
    });
    const types = events.map((event) => event.type);
    expect(types.indexOf('user_input_received')).toBeGreaterThan(types.indexOf('tool_result'));
    expect(events.find((event) => event.type === 'user_input_received')).toMatchObject({
      content: 'also check the README',
    });
    expect(events.at(-1)).toMatchObject({ type: 'done', output: 'Noted: I will also check the README.' });
    // The second model request ends with the tool result, then the user's message.
    const second = h.model.chatRequests[1]!.messages!;
    expect(second.at(-2)).toMatchObject({ role: 'tool' });
    expect(second.at(-1)).toEqual({ role: 'user', content: 'also check the README' });
    // Consumed once a checkpoint held it; the session keeps it in order.
    expect(await (await h.runtime.store()).pendingUserInputs(run.id)).toEqual([]);
    const session = h.runtime.sessions.detail(run.session_id!);
    expect(session.messages.map((message) => message.content)).toContain('also check the README');
  });

  test('a run waiting for approval gets the message when it continues', async () => {
    await using h = await startHarness(
      [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'a' } }] },
        { when: { lastRole: 'user' }, text: 'Written, and I saw your note.' },
      ],
      {},
      { requireApproval: ['write_file'] },
    );
    const run = await h.runtime.start({ prompt: 'write a.txt', workdir: h.workdir }, { execute: false });
    expect((await h.runtime.drive(run.id))?.run.status).toBe('waiting');
    await h.runtime.sendInput(run.id, 'use lowercase');
    const [approval] = await h.runtime.approvals.list({ run_id: run.id, status: 'pending' });
    await h.runtime.approvals.approve(approval!.id);
    const outcome = await h.runtime.drive(run.id);
    expect(outcome?.run.status).toBe('succeeded');
    expect(h.model.chatRequests[1]!.messages!.at(-1)).toEqual({ role: 'user', content: 'use lowercase' });
  });

  test('bad messages and finished or unknown runs are refused', async () => {
    await using h = await startHarness([{ text: 'done' }]);
    const result = await h.runtime.run({ prompt: 'hi', workdir: h.workdir });
    const finished = await h.runtime.sendInput(result.run_id, 'too late').catch((error: unknown) => error);
    expect(KeelError.is(finished) && finished.code).toBe('INVALID_STATE');
    const empty = await h.runtime.sendInput(result.run_id, '  ').catch((error: unknown) => error);
    expect(KeelError.is(empty) && empty.code).toBe('INVALID_PARAMS');
    const unknown = await h.runtime.sendInput('run_nope', 'hello').catch((error: unknown) => error);
    expect(KeelError.is(unknown) && unknown.code).toBe('RUN_NOT_FOUND');
  });
});
