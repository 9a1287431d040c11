import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mountSmallDisk, smallDiskUnavailable } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { integrityOf, truncateWal } from '../../../runtime/test/store/faults/fault-checks.ts';
import { SessionLog } from '../../src/sessions/index.ts';
import { connect, repoWithRemote, startWorkbench, tempDir } from '../harness.ts';

const cannotMount = smallDiskUnavailable();
const skipped = cannotMount ? ` (skipped: ${cannotMount})` : '';

describe.skipIf(cannotMount)(`the workbench on a full disk${skipped}`, () => {
  test('settings, projects, sessions and their logs fail with 500 STORE_ERROR saying the disk is full; reads go on; with space again all works', async () => {
    const disk = mountSmallDisk();
    try {
      const home = join(disk.path, 'home');
      const repo = repoWithRemote(tempDir('repos'), 'app', { 'README.md': '# app\n' });
      await using wb = await startWorkbench([{ text: 'hello' }], { env: { WORKBENCH_HOME: home } });
      const database = join(home, 'workbench.db');
      const secrets = join(home, 'secrets.json');
      const secretsBefore = readFileSync(secrets, 'utf8');
      const { runner } = wb.workbench.services;
      const session = await runner.create('conversation', null, 'keel', { workdir: home, skillDirs: [] });
      const chat = await runner.create('conversation', null, 'keel', { workdir: home, skillDirs: [] });
      runner.record(session.id, { type: 'message', role: 'user', content: 'before' });
      await runner.recorded(session.id);
      const fillUp = () => {
        disk.free();
        truncateWal(database);
        disk.fill();
      };
      const diskFull = {
        code: 'STORE_ERROR',
        message: expect.stringMatching(/the disk is full/),
        details: { reason: 'disk_full' },
      };

      fillUp();
      const settings = await wb.api('PUT', '/api/settings', { model: 'other-model', api_key: 'sk-other' });
      expect(settings).toMatchObject({ status: 500, body: { error: diskFull } });
      // Neither half of the change landed: the row and the secrets file are as they were.
      expect(readFileSync(secrets, 'utf8')).toBe(secretsBefore);
      expect(existsSync(`${secrets}.tmp`)).toBe(false);

      fillUp();
      const project = await wb.api('POST', '/api/projects', {
        name: 'p',
        repositories: [{ path: repo.dir, type: 'custom' }],
      });
      expect(project).toMatchObject({ status: 500, body: { error: diskFull } });

      // A session log append: a STORE_ERROR, and the log keeps only whole entries.
      fillUp();
      runner.record(session.id, { type: 'message', role: 'user', content: 'x'.repeat(20_000) });
      await expect(runner.recorded(session.id)).rejects.toEqual(
        expect.objectContaining({
          code: 'STORE_ERROR',
          status: 500,
          details: expect.objectContaining({ reason: 'disk_full', code: 'ENOSPC' }),
        }),
      );
      // A chat turn over the WebSocket: the client hears why.
      fillUp();
      const socket = await connect(wb.base);
      socket.send({ type: 'chat', session_id: chat.id, content: 'hi' });
      const error = await socket.next((message) => message.type === 'error');
      expect(error.error).toMatchObject({
        code: 'STORE_ERROR',
        message: expect.stringMatching(/the disk is full/),
      });
      socket.socket.close();

      // Still answering, reads included.
      expect((await wb.api('GET', '/health')).status).toBe(200);
      expect((await wb.api('GET', '/api/settings')).body).toMatchObject({
        model: 'mock-model',
        api_key_set: true,
      });
      expect((await wb.api('GET', '/api/projects')).body).toEqual({ projects: [] });

      disk.free();
      expect(
        (await wb.api('PUT', '/api/settings', { model: 'other-model', api_key: 'sk-other' })).status,
      ).toBe(200);
      expect(JSON.parse(readFileSync(secrets, 'utf8'))).toMatchObject({ api_key: 'sk-other' });
      expect(
        (
          await wb.api('POST', '/api/projects', {
            name: 'p',
            repositories: [{ path: repo.dir, type: 'custom' }],
          })
        ).status,
      ).toBe(201);
      runner.record(session.id, { type: 'message', role: 'user', content: 'after' });
      await runner.recorded(session.id);
      const fresh = new SessionLog(wb.workbench.services.paths.sessionLog);
      expect((await fresh.read(session.id)).map((entry) => [entry.seq, entry.event])).toEqual([
        [1, { type: 'message', role: 'user', content: 'before' }],
        [2, { type: 'message', role: 'user', content: 'after' }],
      ]);
      expect(integrityOf(database)).toBe('ok');
    } finally {
      disk.remove();
    }
  });

  test('a line the disk takes only part of is cut off again: the log ends on a whole entry, seq gapless', async () => {
    const disk = mountSmallDisk({ sizeBytes: 1024 * 1024 });
    try {
      const path = (id: string) => join(disk.path, `${id}.jsonl`);
      const log = new SessionLog(path);
      await log.append('s1', { type: 'text_delta', content: 'first' });
      // The log's last page still has room, so a long line is written in part before ENOSPC.
      disk.fill();
      await expect(log.append('s1', { type: 'text_delta', content: 'y'.repeat(12_000) })).rejects.toThrow(
        /the disk is full/,
      );
      expect(readFileSync(path('s1'), 'utf8').endsWith('}\n')).toBe(true);
      expect((await new SessionLog(path).read('s1')).map((entry) => entry.seq)).toEqual([1]);
      disk.free();
      expect((await log.append('s1', { type: 'text_delta', content: 'second' })).seq).toBe(2);
      expect((await new SessionLog(path).read('s1')).map((entry) => entry.event)).toEqual([
        { type: 'text_delta', content: 'first' },
        { type: 'text_delta', content: 'second' },
      ]);
    } finally {
      disk.remove();
    }
  });
});
