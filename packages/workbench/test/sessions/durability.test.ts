import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createWorkbench } from '../../src/index.ts';
import { SessionLog } from '../../src/sessions/index.ts';
import { tempDir } from '../harness.ts';
import { sqliteDb } from '../sqlite-db.ts';

describe('durability of sessions', () => {
  test('a torn last line is dropped and truncated; seq continues from the last complete line', async () => {
    const dir = tempDir('log');
    const log = new SessionLog((id) => join(dir, `${id}.jsonl`));
    void log.append('s1', { type: 'text_delta', content: 'a' });
    await log.append('s1', { type: 'text_delta', content: 'b' });
    appendFileSync(join(dir, 's1.jsonl'), '{"seq":3,"timestamp":"2026-');
    const fresh = new SessionLog((id) => join(dir, `${id}.jsonl`));
    expect((await fresh.read('s1')).map((entry) => entry.seq)).toEqual([1, 2]);
    expect(await fresh.lastSeq('s1')).toBe(2);
    expect((await fresh.append('s1', { type: 'text_delta', content: 'c' })).seq).toBe(3);
    const lines = readFileSync(join(dir, 's1.jsonl'), 'utf8').trim().split('\n');
    expect(lines.map((line) => JSON.parse(line).seq)).toEqual([1, 2, 3]);
    expect((await fresh.read('s1', 1, 1)).map((entry) => entry.seq)).toEqual([2]);
  });

  test('pages of a long log come from any cursor, with multi-byte text intact, as parsed or raw lines', async () => {
    const dir = tempDir('log');
    const log = new SessionLog((id) => join(dir, `${id}.jsonl`));
    for (let i = 1; i <= 2500; i++) void log.append('s1', { type: 'text_delta', content: `é${i}✓` });
    await log.flush();
    const fresh = new SessionLog((id) => join(dir, `${id}.jsonl`));
    for (const log_ of [log, fresh]) {
      expect((await log_.read('s1', 0, 3)).map((entry) => entry.seq)).toEqual([1, 2, 3]);
      const page = await log_.read('s1', 1999, 1000);
      expect(page.map((entry) => entry.seq)).toEqual(Array.from({ length: 501 }, (_, i) => 2000 + i));
      expect(page[0]?.event).toEqual({ type: 'text_delta', content: 'é2000✓' });
      expect(await log_.read('s1', 2500)).toEqual([]);
      expect(await log_.read('s1', 2499, 0)).toEqual([]);
      const raw = await log_.readLines('s1', 10, 2);
      expect(raw.map((line) => JSON.parse(line).seq)).toEqual([11, 12]);
    }
    expect(await fresh.read('unknown')).toEqual([]);
    expect(await fresh.lastSeq('unknown')).toBe(0);
  });

  test('at start-up, sessions left running are failed (INTERRUPTED) with a log entry; old logs are cleaned up', async () => {
    const home = tempDir('restart');
    const first = await createWorkbench({ home, env: {} });
    const { runner, sessions } = first.services;
    const running = await runner.create('conversation', null, 'keel', { workdir: home, skillDirs: [] });
    runner.record(running.id, { type: 'message', role: 'user', content: 'hi' });
    await runner.setStatus(running.id, 'running');
    const old = await runner.create('conversation', null, 'keel', { workdir: home, skillDirs: [] });
    runner.record(old.id, { type: 'message', role: 'user', content: 'old' });
    await runner.setStatus(old.id, 'succeeded');
    sqliteDb(first.services)
      .prepare('UPDATE sessions SET ended_at = ? WHERE id = ?')
      .run('2020-01-01T00:00:00.000Z', old.id);
    expect((await sessions.get(running.id)).status).toBe('running');
    // A crash mid-append: half a line at the end.
    appendFileSync(join(home, 'sessions', `${running.id}.jsonl`), '{"seq":2,"times');
    sqliteDb(first.services).close();

    const second = await createWorkbench({ home, env: { WORKBENCH_LOG_RETENTION_DAYS: '30' } });
    try {
      const row = (await second.app.inject({ url: `/api/sessions/${running.id}/status` })).json();
      expect(row).toMatchObject({ status: 'failed', error: { code: 'INTERRUPTED' }, last_seq: 2 });
      const logs = (await second.app.inject({ url: `/api/sessions/${running.id}/logs` })).json();
      expect(
        logs.entries.map((entry: { seq: number; event: { type: string } }) => [entry.seq, entry.event.type]),
      ).toEqual([
        [1, 'message'],
        [2, 'error'],
      ]);
      const cleaned = (await second.app.inject({ url: `/api/sessions/${old.id}/logs` })).json();
      expect(cleaned.entries).toEqual([]);
      expect((await second.app.inject({ url: `/api/sessions/${old.id}/status` })).json().status).toBe(
        'succeeded',
      );
    } finally {
      await second.close();
    }
  });
});
