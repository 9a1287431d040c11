import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTempGitRepo, eventually, startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { readConfigFile } from '../../src/config/index.ts';
import { createRuntime, type Workflow } from '../../src/index.ts';
import { fakeClock } from '../fake-clock.ts';
import { startHarness } from '../harness.ts';

// An interaction timeout of 30 s in the project's configuration. No test waits for it: each moves a fake
// clock past it (a test that waited on the real clock would time out first).
const timeout30s = { '.runtime/config.json': JSON.stringify({ interaction_timeout: 30 }) };
const pastTimeoutMs = 31_000;
const writeNote = {
  toolCalls: [{ name: 'write_file', arguments: { path: 'note.txt', content: 'unapproved\n' } }],
};

describe('interaction timeout', () => {
  test('an approval nobody decides expires; the call is not run, the model hears why and the run goes on', async () => {
    const clock = fakeClock();
    await using h = await startHarness(
      [
        writeNote,
        { when: { lastMessageIncludes: 'the approval expired' }, text: 'Nobody approved; no note.' },
      ],
      timeout30s,
      { requireApproval: ['write_file'], now: clock.now },
    );
    // Time passes as soon as the run asks; run() follows the waiting run, and so enforces its timeout.
    h.runtime.events.on('interaction_request', () => clock.advance(pastTimeoutMs));
    const { result, error, events, types } = await h.collect({ prompt: 'write a note' });
    expect(error).toBeUndefined();
    expect(result!.output).toBe('Nobody approved; no note.');
    expect(types.indexOf('interaction_request')).toBeLessThan(types.indexOf('tool_call'));
    expect(events.find((event) => event.type === 'tool_result')).toMatchObject({
      tool_name: 'write_file',
      result: 'Not run: the approval expired (nobody decided within 30 seconds).',
    });
    await expect(readFile(join(h.workdir, 'note.txt'), 'utf8')).rejects.toThrow();

    const [approval] = await h.runtime.approvals.list();
    expect(approval).toMatchObject({
      kind: 'tool',
      status: 'expired',
      answer: 'nobody decided within 30 seconds',
      decided_by: 'interaction_timeout',
      detail: { tool_name: 'write_file', timeout_seconds: 30 },
    });
    // A late decision is refused; the audit log says what happened.
    await expect(h.runtime.approvals.approve(approval!.id)).rejects.toMatchObject({ code: 'INVALID_STATE' });
    const { entries } = await h.runtime.audit.list({ event: 'run_control' });
    expect(entries.map((entry) => entry.args_summary)).toContain(
      `expired ${approval!.id}: nobody decided within 30 seconds`,
    );
  });

  test('a question nobody answers expires when someone looks, with no process following the run', async () => {
    const clock = fakeClock();
    await using h = await startHarness(
      [
        {
          toolCalls: [
            { name: 'question', arguments: { text: 'Which database?', options: ['SQLite', 'PostgreSQL'] } },
          ],
        },
        { when: { lastMessageIncludes: 'the question expired' }, text: 'No answer: I will use SQLite.' },
      ],
      timeout30s,
      { now: clock.now },
    );
    const run = await h.runtime.start({ prompt: 'set up storage', workdir: h.workdir }, { execute: false });
    expect((await h.runtime.drive(run.id))?.run.status).toBe('waiting');
    const [question] = await h.runtime.approvals.list({ run_id: run.id });
    expect(question).toMatchObject({ kind: 'question', status: 'pending', detail: { timeout_seconds: 30 } });
    clock.advance(29_000);
    expect((await h.runtime.approvals.list({ run_id: run.id }))[0]!.status).toBe('pending');
    clock.advance(pastTimeoutMs - 29_000);
    // Listing approvals (as `keel approvals list` does) expires an overdue one and queues its run.
    expect((await h.runtime.approvals.list({ run_id: run.id }))[0]!.status).toBe('expired');
    expect((await h.runtime.runs.get(run.id)).status).toBe('queued');
    const outcome = await h.runtime.drive(run.id);
    expect(outcome?.run.status).toBe('succeeded');
    expect(outcome?.run.result).toMatchObject({
      output: 'No answer: I will use SQLite.',
      tool_traces: [
        {
          tool_name: 'question',
          result: 'The user answered: (no answer: the question expired; nobody answered within 30 seconds)',
        },
      ],
    });
    await expect(h.runtime.approvals.answer(question!.id, 'SQLite')).rejects.toMatchObject({
      code: 'INVALID_STATE',
    });
  });

  test('a worker expires overdue approvals of runs it does not hold, then continues them', async () => {
    const clock = fakeClock();
    await using h = await startHarness(
      [writeNote, { when: { lastMessageIncludes: 'the approval expired' }, text: 'Gave up waiting.' }],
      timeout30s,
      { requireApproval: ['write_file'], now: clock.now },
    );
    const run = await h.runtime.start({ prompt: 'write a note', workdir: h.workdir }, { execute: false });
    expect((await h.runtime.drive(run.id))?.run.status).toBe('waiting');
    clock.advance(pastTimeoutMs);
    const stop = new AbortController();
    const worker = h.runtime.work({ stop: stop.signal, idleMs: 20 });
    try {
      await eventually(async () => (await h.runtime.runs.get(run.id)).status === 'succeeded', {
        timeoutMs: 5000,
        intervalMs: 20,
        what: 'the worker to expire the approval and finish the run',
      });
    } finally {
      stop.abort();
      await worker;
    }
    expect((await h.runtime.runs.get(run.id)).result).toMatchObject({ output: 'Gave up waiting.' });
  });

  test('an approval node that expires fails as a rejected one does, and a fallback takes over', async () => {
    const clock = fakeClock();
    await using h = await startHarness(
      [{ when: { lastMessageIncludes: 'plan B' }, text: 'B done' }],
      timeout30s,
      { now: clock.now },
    );
    h.runtime.events.on('interaction_request', () => clock.advance(pastTimeoutMs));
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
    const { result, error } = await h.collect({ prompt: 'prod' }, undefined, workflow);
    expect(error).toBeUndefined();
    expect(result!.output).toBe('B done');
    const [approval] = await h.runtime.approvals.list();
    expect(approval).toMatchObject({ kind: 'node', status: 'expired', detail: { timeout_seconds: 30 } });
  });

  test('deciding an overdue approval is refused and expires it (the SDK option, an injected clock)', async () => {
    const model = await startMockModel({
      script: [writeNote, { when: { lastMessageIncludes: 'expired' }, text: 'Not written.' }],
    });
    const runtimeDir = await mkdtemp(join(tmpdir(), 'keel-home-'));
    const repo = await createTempGitRepo();
    let shift = 0;
    const runtime = createRuntime({
      runtimeDir,
      model: 'mock-model',
      modelBaseUrl: model.url,
      env: {},
      requireApproval: ['write_file'],
      interactionTimeout: 30,
      now: () => new Date(Date.now() + shift),
    });
    try {
      const run = await runtime.start({ prompt: 'write', workdir: repo.path }, { execute: false });
      await runtime.drive(run.id);
      const [approval] = await runtime.approvals.list({ run_id: run.id });
      expect(approval).toMatchObject({ status: 'pending', detail: { timeout_seconds: 30 } });
      shift = 31_000;
      await expect(runtime.approvals.approve(approval!.id)).rejects.toMatchObject({
        code: 'INVALID_STATE',
        message: `Approval '${approval!.id}' expired: nobody decided within 30 seconds (interaction_timeout), so the run went on without it.`,
      });
      expect((await runtime.store().then((store) => store.getApproval(approval!.id))).status).toBe('expired');
      const outcome = await runtime.drive(run.id);
      expect(outcome?.run.status).toBe('succeeded');
      await expect(readFile(join(repo.path, 'note.txt'), 'utf8')).rejects.toThrow();
    } finally {
      await runtime.close();
      await model.close();
      await repo.remove();
      await rm(runtimeDir, { recursive: true, force: true });
    }
  });

  test('without a timeout an approval waits; a bad timeout in the configuration is a clear error', async () => {
    await using h = await startHarness([writeNote], {}, { requireApproval: ['write_file'] });
    const run = await h.runtime.start({ prompt: 'write', workdir: h.workdir }, { execute: false });
    await h.runtime.drive(run.id);
    const [approval] = await h.runtime.approvals.list({ run_id: run.id });
    expect(approval!.status).toBe('pending');
    expect(approval!.detail).not.toHaveProperty('timeout_seconds');

    const dir = await mkdtemp(join(tmpdir(), 'keel-config-'));
    try {
      const path = join(dir, 'config.json');
      await writeFile(path, JSON.stringify({ interaction_timeout: -5, context: { threshold: 1.5 } }));
      expect(() => readConfigFile(path)).toThrow(
        /is invalid: context\.threshold: Too big: .*<=1; interaction_timeout: Too small: .*>=0/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
