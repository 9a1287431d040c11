import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createRuntime } from '@keel/runtime';
import { describe, expect, onTestFinished, test } from 'vitest';
import { continueInForeground } from '../src/foreground-run.ts';
import { jsonLines, keel, keelJson, startKeel, waitFor } from './keel-process.ts';
import { scenario } from './scenario.ts';

const needsApproval = { security: { require_approval: ['write_file'] } };
const writeCall = { toolCalls: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'hello\n' } }] };

interface Approval {
  id: string;
  run_id: string;
  status: string;
  detail: { tool_name?: string };
}
interface Run {
  id: string;
  status: string;
}

/** Waits until a `keel run` child asks for an approval on stderr; returns the approval id it printed. */
function approvalIdFrom(output: { stderr: string }): Promise<string> {
  return waitFor(() => output.stderr.match(/keel approvals approve (apr_\w+)/)?.[1]);
}

describe('keel approvals, across processes', () => {
  test('a run waits for approval; its process dies; another process lists, approves and finishes it', async () => {
    await using s = await scenario([writeCall, { when: { lastRole: 'tool' }, text: 'Wrote out.txt.' }], {
      config: needsApproval,
      trusted: true,
    });
    const running = startKeel(['run', 'write hello to out.txt', '-w', s.repo.path], s.env);
    const approvalId = await approvalIdFrom(running.output);
    expect(running.output.stderr).toContain('? Allow write_file');
    expect(running.output.stderr).toContain(`keel approvals reject ${approvalId}`);
    // The request is announced just before the run is recorded as waiting: kill it once it is.
    const runId = await waitFor(async () => {
      const { runs } = await keelJson<{ runs: Run[] }>(['runs', 'list', '--status', 'waiting'], s.env);
      return runs[0]?.id;
    });
    running.child.kill('SIGKILL');
    await running.done;

    const { approvals } = await keelJson<{ approvals: Approval[] }>(['approvals', 'list'], s.env);
    expect(approvals).toHaveLength(1);
    expect(approvals[0]).toMatchObject({
      id: approvalId,
      run_id: runId,
      status: 'pending',
      detail: { tool_name: 'write_file' },
    });
    const listed = await keel(['approvals', 'list', '--status', 'pending'], s.env);
    expect(listed.stdout).toMatch(new RegExp(`^${approvalId}  pending +${runId}  .*Allow write_file`, 'm'));
    expect(s.model.chatRequests).toHaveLength(1);

    const approved = await keel(['approvals', 'approve', approvalId, '-w', s.repo.path], s.env);
    expect(approved.stderr).not.toContain('Error');
    expect(approved.code).toBe(0);
    expect(approved.stdout).toBe('Wrote out.txt.\n');
    expect(approved.stderr).toContain(`Approved ${approvalId}; run ${runId} is queued.`);
    expect(approved.stderr).toContain('● write_file({"path":"out.txt","content":"hello\\n"})');
    expect(await readFile(join(s.repo.path, 'out.txt'), 'utf8')).toBe('hello\n');

    const shown = await keelJson<{ run: Run; steps: { kind: string; status: string }[] }>(
      ['runs', 'show', runId],
      s.env,
    );
    expect(shown.run.status).toBe('succeeded');
    expect(shown.steps.map((step) => `${step.kind}:${step.status}`)).toContain('tool_batch:waiting');

    // Every event once, in one gapless sequence, across both processes.
    const replay = await keel(['runs', 'watch', runId, '--json'], s.env);
    expect(replay.code).toBe(0);
    const events = jsonLines<{ seq: number; type: string }>(replay.stdout);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    const once = ['session_start', 'interaction_request', 'tool_call', 'tool_result', 'done'];
    for (const type of once) expect(events.filter((event) => event.type === type)).toHaveLength(1);
    const bodies = events.map(({ seq: _seq, ...event }) => JSON.stringify(event));
    expect(new Set(bodies).size).toBe(bodies.length);
    expect(events.map((event) => event.type).filter((type) => type !== 'text_delta')).toEqual(once);
    // Replayed, the decided request is shown as decided, not as a question.
    const text = await keel(['runs', 'watch', runId], s.env);
    expect(text.stderr).toContain('(approved)');
    expect(text.stderr).not.toContain('keel approvals approve');

    const again = await keel(['approvals', 'approve', approvalId], s.env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^Error \[INVALID_STATE\]: /m);
  }, 60_000);

  test('a rejection is told to the model, and the run goes on; the waiting process shows it too', async () => {
    await using s = await scenario(
      [writeCall, { when: { lastRole: 'tool' }, text: 'Understood, nothing written.' }],
      { config: needsApproval, trusted: true },
    );
    const running = startKeel(['run', 'write hello to out.txt', '-w', s.repo.path], s.env);
    const approvalId = await approvalIdFrom(running.output);

    const rejected = await keel(['approvals', 'reject', approvalId, '--reason', 'not today'], s.env);
    expect(rejected.stderr).not.toContain('Error');
    expect(rejected.code).toBe(0);
    const ran = await running.done;
    expect(ran.code).toBe(0);
    // Whichever process executed the rest, both show it.
    expect(rejected.stdout).toContain('Understood, nothing written.');
    expect(ran.stdout).toContain('Understood, nothing written.');

    const toolMessage = s.model.chatRequests[1]!.messages!.at(-1)!;
    expect(toolMessage.role).toBe('tool');
    expect(JSON.stringify(toolMessage.content)).toContain('rejected this call (not today)');
    await expect(readFile(join(s.repo.path, 'out.txt'))).rejects.toThrow();
    const pending = await keelJson<{ approvals: Approval[] }>(
      ['approvals', 'list', '--status', 'pending'],
      s.env,
    );
    expect(pending.approvals).toEqual([]);
    const decided = await keelJson<{ approvals: (Approval & { answer: string })[] }>(
      ['approvals', 'list', '--status', 'rejected'],
      s.env,
    );
    expect(decided.approvals[0]).toMatchObject({ id: approvalId, answer: 'not today' });
  }, 60_000);

  test('with --detach the decision only queues the run, and a worker finishes it', async () => {
    await using s = await scenario([writeCall, { when: { lastRole: 'tool' }, text: 'Done by the worker.' }], {
      config: needsApproval,
      trusted: true,
    });
    const running = startKeel(['run', 'write hello to out.txt', '-w', s.repo.path], s.env);
    const approvalId = await approvalIdFrom(running.output);
    await waitFor(async () => {
      const { runs } = await keelJson<{ runs: Run[] }>(['runs', 'list', '--status', 'waiting'], s.env);
      return runs[0]?.id;
    });
    running.child.kill('SIGKILL');
    await running.done;

    const decided = await keelJson<{ approval: Approval; run: Run }>(
      ['approvals', 'approve', approvalId, '--detach'],
      s.env,
    );
    expect(decided.approval.status).toBe('approved');
    expect(decided.run.status).toBe('queued');

    const worker = startKeel(['worker', '--idle-ms', '50', '--json'], s.env);
    const stopped = await waitFor(() =>
      jsonLines<{ type: string; run_id: string; status: string }>(worker.output.stdout).find(
        (line) => line.type === 'stopped',
      ),
    );
    expect(stopped).toEqual({ type: 'stopped', run_id: decided.run.id, status: 'succeeded' });
    // The worker's own lines (started, ready) come first; its first run line is the run it took.
    const runLines = jsonLines<{ type: string }>(worker.output.stdout).filter(
      (line) => !['started', 'ready', 'waiting'].includes(line.type),
    );
    expect(runLines[0]).toMatchObject({ type: 'taken', run_id: decided.run.id });
    worker.child.kill('SIGTERM');
    expect((await worker.done).code).toBe(0);
    expect(await readFile(join(s.repo.path, 'out.txt'), 'utf8')).toBe('hello\n');
  }, 60_000);

  test('a continued run that stops at the next approval exits 3, naming it; Ctrl-C cancels a waiting run', async () => {
    const secondCall = {
      toolCalls: [{ name: 'write_file', arguments: { path: 'two.txt', content: '2\n' } }],
    };
    await using s = await scenario([writeCall, { when: { lastRole: 'tool' }, ...secondCall }], {
      config: needsApproval,
      trusted: true,
    });
    const running = startKeel(['run', 'write two files', '-w', s.repo.path], s.env);
    const first = await approvalIdFrom(running.output);
    await waitFor(async () => {
      const { runs } = await keelJson<{ runs: Run[] }>(['runs', 'list', '--status', 'waiting'], s.env);
      return runs[0]?.id;
    });
    running.child.kill('SIGKILL');
    await running.done;

    const approved = await keel(['approvals', 'approve', first], s.env);
    expect(approved.code).toBe(3);
    const second = approved.stderr.match(/keel approvals approve (apr_\w+)/)?.[1];
    expect(second).toMatch(/^apr_/);
    expect(second).not.toBe(first);
    expect(approved.stderr).toMatch(/is waiting for an approval\.\n\? Allow write_file \{"path":"two\.txt"/);

    // `keel run` waits for the approval; Ctrl-C there cancels the run and its pending approval.
    const waiting = startKeel(['run', 'write two files', '-w', s.repo.path], s.env);
    s.model.push(secondCall);
    const third = await approvalIdFrom(waiting.output);
    waiting.child.kill('SIGINT');
    expect((await waiting.done).code).toBe(130);
    const { approvals } = await keelJson<{ approvals: Approval[] }>(['approvals', 'list'], s.env);
    expect(approvals.find((approval) => approval.id === third)?.status).toBe('cancelled');
    expect(approvals.find((approval) => approval.id === second)?.status).toBe('pending');
  }, 60_000);

  test('the deciding terminal follows the run its first terminal continues, and stops at the next approval', async () => {
    // The second reply is held until the deciding terminal follows: the first holds the run mid-turn.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const secondCall = {
      until: held,
      toolCalls: [{ name: 'write_file', arguments: { path: 'two.txt', content: '2\n' } }],
    };
    await using s = await scenario([writeCall, { when: { lastRole: 'tool' }, ...secondCall }], {
      config: needsApproval,
      trusted: true,
    });
    const running = startKeel(['run', 'write two files', '-w', s.repo.path], s.env);
    const first = await approvalIdFrom(running.output);
    const deciding = createRuntime({ env: s.env, workdir: s.repo.path });
    onTestFinished(() => deciding.close());
    const { run } = await deciding.approvals.reject(first, { reason: 'not that one' });
    expect(run.status).toBe('queued');
    // The first terminal took the run back and asked the model again.
    await waitFor(() => s.model.chatRequests.length === 2);

    const io = { out: new PassThrough(), err: new PassThrough(), env: s.env, cwd: s.repo.path, exitCode: 0 };
    let err = '';
    io.err.on('data', (chunk) => (err += chunk));
    io.out.resume();
    const following = continueInForeground(deciding, run, { keelArgs: '' }, io);
    await waitFor(() => err.includes(`Run ${run.id} is being executed by another worker; following it.`));
    release();
    expect(await following).toBe(3);
    const second = [...err.matchAll(/keel approvals approve (apr_\w+)/g)].at(-1)?.[1];
    expect(second).toMatch(/^apr_/);
    expect(second).not.toBe(first);

    const approved = await keel(['approvals', 'approve', second ?? '', '--detach'], s.env);
    expect(approved.code, approved.stderr).toBe(0);
    s.model.push({ text: 'Wrote two.txt.' });
    expect((await running.done).code).toBe(0);
    expect(await readFile(join(s.repo.path, 'two.txt'), 'utf8')).toBe('2\n');
  }, 60_000);

  test('a question asked by the model is answered from another terminal; the waiting run continues', async () => {
    await using s = await scenario([
      {
        toolCalls: [
          { name: 'question', arguments: { text: 'Which license?', options: ['MIT', 'Apache-2.0'] } },
        ],
      },
      { when: { lastMessageIncludes: 'The user answered: MIT' }, text: 'Using MIT.' },
    ]);
    const running = startKeel(['run', 'add a license', '-w', s.repo.path], s.env);
    const questionId = await waitFor(
      () => running.output.stderr.match(/keel approvals answer (apr_\w+)/)?.[1],
    );
    expect(running.output.stderr).toContain('? Which license? (MIT / Apache-2.0)');
    await waitFor(async () => {
      const { runs } = await keelJson<{ runs: Run[] }>(['runs', 'list', '--status', 'waiting'], s.env);
      return runs[0]?.id;
    });
    const answered = await keel(['approvals', 'answer', questionId, 'MIT', '--detach'], s.env);
    expect(answered).toMatchObject({ code: 0 });
    expect(answered.stdout).toMatch(new RegExp(`^Answered ${questionId}; run run_\\w+ is queued\\.`));
    // The original process was waiting without a lease; it picks the run up again and finishes it.
    const finished = await running.done;
    expect(finished.code).toBe(0);
    expect(finished.stdout).toBe('Using MIT.\n');
    const empty = await keel(['approvals', 'answer', questionId, 'again'], s.env);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/^Error \[INVALID_STATE\]: /m);
  }, 60_000);

  test('unknown approvals and runs are clear errors', async () => {
    await using s = await scenario([]);
    const approve = await keel(['approvals', 'approve', 'apr_nope'], s.env);
    expect(approve).toMatchObject({ code: 1, stdout: '' });
    expect(approve.stderr).toBe("Error [APPROVAL_NOT_FOUND]: Approval 'apr_nope' does not exist.\n");
    const list = await keel(['approvals', 'list', '--run-id', 'run_nope'], s.env);
    expect(list.code).toBe(1);
    expect(list.stderr).toContain('Error [RUN_NOT_FOUND]');
    const badStatus = await keel(['approvals', 'list', '--status', 'maybe'], s.env);
    expect(badStatus.code).toBe(1);
    expect(badStatus.stderr).toContain('must be one of pending, approved, rejected, answered, cancelled');
  });
});
