import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { createToolContext } from '../../src/runs/index.ts';
import { FileHistory, TodoList } from '../../src/tools/index.ts';

test('one tool context for a run and a direct call: same confinement, one history, todos only for runs', async () => {
  const workdir = await mkdtemp(join(tmpdir(), 'keel-ctx-'));
  try {
    const history = new FileHistory();
    const todos = new TodoList();
    const audit = async () => undefined;
    const config = { security: { blocked_commands: ['curl'] } };
    const forRun = await createToolContext({ workdir, config, audit, history, todos });
    const direct = await createToolContext({ workdir, config, audit, history });
    const signal = new AbortController().signal;
    const a = forRun(signal);
    const b = forRun(new AbortController().signal);
    expect(a.guard).toBe(b.guard);
    expect(a.history).toBe(history);
    expect(a.todos).toBe(todos);
    expect(a.signal).toBe(signal);
    expect(direct(signal).todos).toBeUndefined();
    expect('todos' in direct(signal)).toBe(false);
    expect(a.guard.isInside(join(workdir, 'x.txt'))).toBe(true);
    expect(a.guard.isInside(tmpdir())).toBe(false);
    expect(a.commands?.check('curl example.com').allowed).toBe(false);
    expect(direct(signal).commands?.check('curl example.com').allowed).toBe(false);
  } finally {
    await rm(workdir, { recursive: true, force: true });
  }
});
