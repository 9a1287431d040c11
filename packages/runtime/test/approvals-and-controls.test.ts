import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eventually } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import type { RunEventRecord, Runtime, Workflow } from '../src/index.ts';
import { fakeClock } from './fake-clock.ts';
import { startHarness } from './harness.ts';

const writeNote = {
  toolCalls: [{ name: 'write_file', arguments: { path: 'note.txt', content: 'approved content\n' } }],
};

/** Every stored event once, in order, with seq 1..N and unique ids. */
function expectGapless(records: RunEventRecord[]): void {
  expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index + 1));
  expect(new Set(records.map((record) => record.id)).size).toBe(records.length);
}

async function waitForStatus(runtime: Runtime, runId: string, status: string): Promise<void> {
  await eventually(async () => (await runtime.runs.get(runId)).status === status, {
    timeoutMs: 10_000,
    intervalMs: 20,
    what: `run ${runId} to become ${status}`,
  });
}

describe('approvals required by a trait', () => {
  test('require_approval: ["writes_files"] holds every tool that writes files, and no other', async () => {
    await using h = await startHarness(
      [
        { toolCalls: [{ name: 'read_file', arguments: { path: 'note.txt' } }] },
        { when: { lastRole: 'tool' }, ...writeNote },
        { when: { lastRole: 'tool' }, text: 'Done.' },
      ],
      { 'note.txt': 'old\n' },
      { requireApproval: ['writes_files'] },
    );
    const run = await h.runtime.start({ prompt: 'read, then write', workdir: h.workdir }, { execute: false });
    expect((await h.runtime.drive(run.id))?.run.status).toBe('waiting');
    const approvals = await h.runtime.approvals.list({ run_id: run.id });
    // read_file changes nothing: it ran without asking; write_file writes files: it waits.
    expect(approvals.map((approval) => approval.detail.tool_name)).toEqual(['write_file']);
  });
});

describe('approvals that free the worker', () => {
  test('a tool call waits for approval holding no lease; another runtime approves and finishes it', async () => {
    await using h = await startHarness(
      [writeNote, { when: { lastRole: 'tool' }, text: 'Wrote the note.' }],
      {},
      {
        requireApproval: ['write_file'],
      },
    );
    const run = await h.runtime.start({ prompt: 'write a note', workdir: h.workdir }, { execute: false });
    const first = await h.runtime.drive(run.id);
    expect(first?.run).toMatchObject({ status: 'waiting', lease_owner: null });
    const [approval] = await h.runtime.approvals.list({ run_id: run.id, status: 'pending' });
    expect(approval).toMatchObject({
      kind: 'tool',
      options: ['approve', 'reject'],
      detail: { tool_name: 'write_file', args: { path: 'note.txt', content: 'approved content\n' } },
    });
    // Nothing was written yet, and a resume is refused while the approval is pending.
    await expect(readFile(join(h.workdir, 'note.txt'), 'utf8')).rejects.toThrow();
    await expect(h.runtime.resumeRun(run.id)).rejects.toMatchObject({ code: 'INVALID_STATE' });
    await h.runtime.close();

    // "Another process": a fresh runtime on the same store approves and continues the run.
    const other = h.other();
    try {
      const decided = await other.approvals.approve(approval!.id, { by: 'tester' });
      expect(decided.approval).toMatchObject({ status: 'approved', decided_by: 'tester' });
      expect(decided.run.status).toBe('queued');
      const outcome = await other.drive(run.id);
      expect(outcome?.run.status).toBe('succeeded');
      expect(await readFile(join(h.workdir, 'note.txt'), 'utf8')).toBe('approved content\n');
      await expect(other.approvals.approve(approval!.id)).rejects.toMatchObject({ code: 'INVALID_STATE' });

      const records = await other.runs.events(run.id);
      expectGapless(records);
      const types = records.map((record) => record.event.type);
      expect(types.filter((type) => type === 'session_start')).toHaveLength(1);
      expect(types.filter((type) => type === 'interaction_request')).toHaveLength(1);
      expect(types.filter((type) => type === 'tool_call')).toHaveLength(1);
      expect(types.indexOf('interaction_request')).toBeLessThan(types.indexOf('tool_call'));
      expect(types.at(-1)).toBe('done');
      // The model was asked exactly twice: no step ran twice.
      expect(h.model.chatRequests).toHaveLength(2);

      // The audit log has the write (once) and the decision.
      const { entries, total } = await other.audit.list({ run_id: run.id });
      expect(total).toBe(entries.length);
      expect(entries.filter((entry) => entry.event === 'file_write')).toMatchObject([
        { tool_name: 'write_file', success: true, session_id: run.session_id, workdir: h.workdir },
      ]);
      expect(entries.find((entry) => entry.event === 'run_control')?.args_summary).toBe(
        `approved ${approval!.id}`,
      );
      expect((await other.audit.list({ event: 'file_write', limit: 1 })).entries).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  test('a rejected call is not run and the model hears why', async () => {
    await using h = await startHarness(
      [writeNote, { when: { lastMessageIncludes: 'rejected' }, text: 'Understood, not writing.' }],
      {},
      { requireApproval: ['write_file'] },
    );
    const run = await h.runtime.start({ prompt: 'write', workdir: h.workdir }, { execute: false });
    await h.runtime.drive(run.id);
    const [approval] = await h.runtime.approvals.list({ run_id: run.id });
    await h.runtime.approvals.reject(approval!.id, { reason: 'not now' });
    const outcome = await h.runtime.drive(run.id);
    expect(outcome?.run.status).toBe('succeeded');
    const result = (await h.runtime.runs.get(run.id)).result as { output: string; tool_traces: unknown[] };
    expect(result.output).toBe('Understood, not writing.');
    expect(result.tool_traces).toEqual([
      {
        tool_name: 'write_file',
        args: { path: 'note.txt', content: 'approved content\n' },
        result: 'Not run: the user rejected this call (not now).',
      },
    ]);
    await expect(readFile(join(h.workdir, 'note.txt'), 'utf8')).rejects.toThrow();
  });

  test('an approval decided before the run finished suspending still resumes it', async () => {
    await using h = await startHarness(
      [writeNote, { when: { lastRole: 'tool' }, text: 'Done.' }],
      {},
      {
        requireApproval: ['write_file'],
      },
    );
    const run = await h.runtime.start({ prompt: 'write', workdir: h.workdir }, { execute: false });
    const outcome = await h.runtime.drive(run.id, {
      onEvent: async (event) => {
        // Decided while the run is still `running`: the executor must notice when it suspends.
        if (event.type === 'interaction_request') await h.runtime.approvals.approve(event.request_id);
      },
    });
    expect(outcome?.run.status).toBe('queued');
    expect((await h.runtime.drive(run.id))?.run.status).toBe('succeeded');
  });

  test('run() waits through an approval given by another runtime and returns the result', async () => {
    await using h = await startHarness(
      [writeNote, { when: { lastRole: 'tool' }, text: 'Done.' }],
      {},
      {
        requireApproval: ['write_file'],
      },
    );
    const other = h.other();
    try {
      const types: string[] = [];
      const running = h.runtime.run(
        { prompt: 'write', workdir: h.workdir },
        {
          onEvent: async (event) => {
            types.push(event.type);
            if (event.type === 'interaction_request') {
              // Approve from elsewhere once the run has released its worker.
              void (async () => {
                const [run] = await other.runs.list();
                await waitForStatus(other, run!.id, 'waiting');
                await other.approvals.approve(event.request_id);
              })();
            }
          },
        },
      );
      const result = await running;
      expect(result.output).toBe('Done.');
      expect(types.filter((type) => type === 'tool_call')).toHaveLength(1);
      expect(types.at(-1)).toBe('done');
    } finally {
      await other.close();
    }
  });

  test('the question tool asks the user; the run waits, and the answer from another runtime is the tool result', async () => {
    await using h = await startHarness([
      {
        toolCalls: [
          { name: 'question', arguments: { text: 'Which database?', options: ['SQLite', 'PostgreSQL'] } },
        ],
      },
      { when: { lastMessageIncludes: 'The user answered: PostgreSQL' }, text: 'Going with PostgreSQL.' },
    ]);
    const run = await h.runtime.start({ prompt: 'set up storage', workdir: h.workdir }, { execute: false });
    const events: { type: string }[] = [];
    const first = await h.runtime.drive(run.id, { onEvent: (event) => void events.push(event) });
    expect(first?.run.status).toBe('waiting');
    const request = events.find((event) => event.type === 'interaction_request');
    expect(request).toMatchObject({
      kind: 'question',
      prompt: 'Which database?',
      options: ['SQLite', 'PostgreSQL'],
    });
    const other = h.other();
    try {
      const [question] = await other.approvals.list({ run_id: run.id, status: 'pending' });
      expect(question).toMatchObject({ kind: 'question', detail: { tool_call_id: 'call_mock_1' } });
      await expect(other.approvals.answer(question!.id, '  ')).rejects.toMatchObject({
        code: 'INVALID_PARAMS',
      });
      const answered = await other.approvals.answer(question!.id, 'PostgreSQL');
      expect(answered.approval).toMatchObject({ status: 'answered', answer: 'PostgreSQL' });
      const outcome = await other.drive(run.id);
      expect((outcome!.run.result as { output: string }).output).toBe('Going with PostgreSQL.');
    } finally {
      await other.close();
    }
    // Outside a run there is nobody to ask.
    await expect(h.runtime.callTool('question', { text: 'hi?' }, h.workdir)).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
    });
  });

  test('an approval node: approve continues, reject fails the node and a fallback takes over', async () => {
    await using h = await startHarness([{ when: { lastMessageIncludes: 'plan B' }, text: 'B done' }]);
    const workflow: Workflow = {
      root: {
        id: 'choose',
        kind: 'fallback',
        try: [
          {
            id: 'gated',
            kind: 'sequence',
            steps: [
              { id: 'ok', kind: 'approval', prompt: 'Deploy {{input.prompt}}?' },
              { id: 'deploy', kind: 'tool', tool: 'list_directory', params: {} },
            ],
          },
          { id: 'b', kind: 'agent', prompt: 'plan B' },
        ],
      },
    };
    const run = await h.runtime.start({ prompt: 'prod', workdir: h.workdir }, { workflow, execute: false });
    expect((await h.runtime.drive(run.id))?.run.status).toBe('waiting');
    const [approval] = await h.runtime.approvals.list({ run_id: run.id });
    expect(approval).toMatchObject({
      kind: 'node',
      node_id: 'ok',
      prompt: 'Deploy prod?',
      status: 'pending',
    });
    await h.runtime.approvals.reject(approval!.id, { reason: 'freeze' });
    const outcome = await h.runtime.drive(run.id);
    expect(outcome?.run.status).toBe('succeeded');
    expect((outcome!.run.result as { output: string }).output).toBe('B done');
  });
});

describe('run controls', () => {
  test('pause stops at the next step boundary; resume continues from the checkpoint', async () => {
    await using h = await startHarness([
      { toolCalls: [{ name: 'list_directory', arguments: {} }], delayMs: 300 },
      { when: { lastRole: 'tool' }, text: 'Listed.' },
    ]);
    const run = await h.runtime.start({ prompt: 'list', workdir: h.workdir }, { execute: false });
    const driving = h.runtime.drive(run.id);
    await waitForStatus(h.runtime, run.id, 'running');
    await h.runtime.pauseRun(run.id);
    const paused = await driving;
    expect(paused?.run.status).toBe('paused');
    expect(h.model.chatRequests).toHaveLength(1);
    await expect(h.runtime.retryRun(run.id)).rejects.toMatchObject({ code: 'INVALID_STATE' });
    expect((await h.runtime.resumeRun(run.id)).status).toBe('queued');
    const done = await h.runtime.drive(run.id);
    expect(done?.run.status).toBe('succeeded');
    expect(h.model.chatRequests).toHaveLength(2);
    expectGapless(await h.runtime.runs.events(run.id));
  });

  test('a failed run is retried from its last checkpoint', async () => {
    await using h = await startHarness([
      { toolCalls: [{ name: 'list_directory', arguments: {} }] },
      { when: { lastRole: 'tool' }, error: { status: 401 } },
    ]);
    const run = await h.runtime.start({ prompt: 'list', workdir: h.workdir }, { execute: false });
    const failed = await h.runtime.drive(run.id);
    expect(failed?.run).toMatchObject({ status: 'failed', error: { code: 'AUTHENTICATION_FAILED' } });
    h.model.push({ when: { lastRole: 'tool' }, text: 'Second time lucky.' });
    expect((await h.runtime.retryRun(run.id)).attempt).toBe(2);
    const retried = await h.runtime.drive(run.id);
    expect(retried?.run).toMatchObject({ status: 'succeeded', error: null, attempt: 2 });
    const turns = (await h.runtime.runs.steps(run.id)).filter((step) => step.kind === 'model_turn');
    expect(turns.map((step) => step.status)).toEqual(['succeeded', 'failed', 'succeeded']);
    // The tool batch before the failure was not run again.
    const toolCalls = (await h.runtime.runs.events(run.id)).filter((r) => r.event.type === 'tool_call');
    expect(toolCalls).toHaveLength(1);
    const metrics = await h.runtime.runs.metrics(run.id);
    expect(metrics.retries.run).toBe(1);
    expect(metrics.tools).toEqual({ list_directory: 1 });
    await expect(h.runtime.retryRun(run.id)).rejects.toThrow(/is succeeded/);
  });

  test('an orphaned run (its worker gone) is recovered from its last checkpoint; a live one is not', async () => {
    const clock = fakeClock();
    await using h = await startHarness([{ text: 'Recovered.' }], {}, { now: clock.now });
    const run = await h.runtime.start({ prompt: 'hi', workdir: h.workdir }, { execute: false });
    const store = await h.runtime.store();
    // A worker on another host claims the run and vanishes: its lease runs out.
    expect(await store.claimRun(run.id, { owner: 'elsewhere:1:dead', leaseMs: 60_000 })).not.toBeNull();
    await expect(h.runtime.recoverRun(run.id)).rejects.toThrow(/its worker elsewhere:1:dead is alive/);
    expect(await store.claimRun(run.id, { owner: 'another', leaseMs: 1000, from: ['running'] })).toBeNull();
    clock.advance(59_000);
    expect(h.runtime.runs.isOrphaned(await h.runtime.runs.get(run.id))).toBe(false);
    clock.advance(2_000);
    expect(h.runtime.runs.isOrphaned(await h.runtime.runs.get(run.id))).toBe(true);
    expect((await h.runtime.recoverRun(run.id)).status).toBe('queued');
    const outcome = await h.runtime.drive(run.id);
    expect(outcome?.run.status).toBe('succeeded');
    await expect(h.runtime.recoverRun(run.id)).rejects.toMatchObject({ code: 'INVALID_STATE' });
  });

  test('cancel reaches a queued or waiting run from any runtime', async () => {
    await using h = await startHarness([writeNote], {}, { requireApproval: ['write_file'] });
    const queued = await h.runtime.start({ prompt: 'a', workdir: h.workdir }, { execute: false });
    expect((await h.runtime.cancelRun(queued.id)).status).toBe('cancelled');
    const waiting = await h.runtime.start({ prompt: 'b', workdir: h.workdir }, { execute: false });
    await h.runtime.drive(waiting.id);
    expect((await h.runtime.cancelRun(waiting.id)).status).toBe('cancelled');
    const [approval] = await h.runtime.approvals.list({ run_id: waiting.id });
    expect(approval?.status).toBe('cancelled');
    const records = await h.runtime.runs.events(waiting.id);
    expect(records.at(-1)?.event.type).toBe('cancelled');
    expectGapless(records);
    await expect(h.runtime.cancelRun('run_nope')).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' });
  });

  test('a fork from an early checkpoint shares the history up to it, then goes its own way', async () => {
    await using h = await startHarness([
      { toolCalls: [{ name: 'list_directory', arguments: {} }] },
      { when: { lastRole: 'tool' }, text: 'Original answer.' },
      { when: { lastRole: 'tool' }, text: 'Forked answer.' },
    ]);
    const result = await h.runtime.run({ prompt: 'list', workdir: h.workdir });
    expect(result.output).toBe('Original answer.');
    const checkpoints = await h.runtime.runs.checkpoints(result.run_id);
    // First checkpoint: after the first model turn (tool call chosen, not yet run).
    const early = checkpoints[0]!;
    const fork = await h.runtime.forkRun(early.id);
    expect(fork).toMatchObject({
      status: 'queued',
      forked_from: { run_id: result.run_id, checkpoint_id: early.id },
    });
    const original = await h.runtime.runs.events(result.run_id);
    const copied = await h.runtime.runs.events(fork.id);
    expect(copied.map((r) => r.event)).toEqual(original.slice(0, early.seq).map((r) => r.event));
    const outcome = await h.runtime.drive(fork.id);
    expect(outcome?.run.status).toBe('succeeded');
    expect((outcome!.run.result as { output: string }).output).toBe('Forked answer.');
    const all = await h.runtime.runs.events(fork.id);
    expectGapless(all);
    expect(all.slice(0, early.seq).map((r) => r.event)).toEqual(
      original.slice(0, early.seq).map((r) => r.event),
    );
    await expect(h.runtime.forkRun('chk_missing')).rejects.toMatchObject({ code: 'CHECKPOINT_NOT_FOUND' });
  });
});
