import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRuntime } from '@keel/runtime';
import { eventually } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { shapeOf, startKeelHarness } from './keel-harness.ts';

describe('KeelRunner follows its run through the store', () => {
  test('a run waiting for an approval goes on once someone approves it (as `keel approvals approve` does)', async () => {
    await using h = await startKeelHarness([
      { toolCalls: [{ name: 'write_file', arguments: { path: 'NOTES.md', content: 'approved\n' } }] },
      { when: { lastRole: 'tool' }, text: 'Wrote the notes.' },
    ]);
    await writeFile(
      join(h.home.path, 'config.json'),
      JSON.stringify({ security: { require_approval: ['write_file'] } }),
    );
    const running = h.run();

    const other = createRuntime({ runtimeDir: h.home.path, env: {} });
    try {
      const [approval] = await eventually(
        async () => {
          const pending = await other.approvals.list({ status: 'pending' });
          return pending.length > 0 && pending;
        },
        { timeoutMs: 10_000, what: 'an approval to be asked for' },
      );
      await other.approvals.approve(approval?.id as string, { reason: 'fine' });
    } finally {
      await other.close();
    }
    const { events, outcome } = await running;

    expect(outcome).toMatchObject({ status: 'succeeded', output: 'Wrote the notes.' });
    expect(await readFile(join(h.repo.path, 'NOTES.md'), 'utf8')).toBe('approved\n');
    expect(shapeOf(events)).toEqual([
      'runner_started',
      'tool_call write_file file_edit NOTES.md',
      'tool_result write_file file_edit true',
      'message assistant',
      'usage',
    ]);
  });

  test('an absolute path inside the workdir is given relative to it', async () => {
    await using h = await startKeelHarness([], { 'a.txt': 'A\n' });
    h.model.push(
      { toolCalls: [{ name: 'read_file', arguments: { path: join(h.repo.path, 'a.txt') } }] },
      { when: { lastRole: 'tool' }, text: 'A.' },
    );
    const { events } = await h.run();
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'tool_call', path: 'a.txt', kind: 'file_read' }),
    );
  });

  test('a workdir that does not exist is a failed outcome, not a throw', async () => {
    await using h = await startKeelHarness([{ text: 'never asked' }]);
    const workdir = join(h.home.path, 'gone');
    await rm(workdir, { recursive: true, force: true });
    const { events, outcome } = await h.run({ workdir });
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'INVALID_PARAMS' } });
    expect(outcome.error?.message).toContain('workdir');
    expect(shapeOf(events)).toEqual(['error INVALID_PARAMS']);
  });
});
