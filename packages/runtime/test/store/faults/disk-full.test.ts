import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  eventually,
  mountSmallDisk,
  type ScriptedReply,
  type SmallDisk,
  smallDiskUnavailable,
  startMockModel,
} from '@keel/testkit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FsBlobStore } from '../../../src/artifacts/index.ts';
import { createRuntime, type Runtime } from '../../../src/index.ts';
import { expectGapless, failureOf, integrityOf, truncateWal } from './fault-checks.ts';

const cannotMount = smallDiskUnavailable();

// RUNTIME_HOME (the SQLite store, sessions, artifacts) and the workdir on one small tmpfs, filled up.
describe.skipIf(cannotMount)(
  `a full disk under the runtime${cannotMount ? ` (skipped: ${cannotMount})` : ''}`,
  () => {
    let disk: SmallDisk;
    let model: Awaited<ReturnType<typeof startMockModel>>;
    let runtime: Runtime;
    let home: string;
    let workdir: string;

    beforeAll(async () => {
      disk = mountSmallDisk();
      home = join(disk.path, 'home');
      workdir = join(disk.path, 'work');
      mkdirSync(workdir, { recursive: true });
      writeFileSync(join(workdir, 'notes.md'), 'the original notes\n');
      const replies: ScriptedReply[] = Array.from({ length: 10 }, (_, i) => ({ text: `answer ${i}` }));
      model = await startMockModel({ script: replies });
      runtime = createRuntime({ runtimeDir: home, model: 'mock-model', modelBaseUrl: model.url, env: {} });
    });

    afterAll(async () => {
      await runtime?.close();
      await model?.close();
      disk?.remove();
    });

    test('every write fails with STORE_ERROR or TOOL_ERROR saying the disk is full; reads go on; after freeing space all works and nothing is damaged', async () => {
      const before = await runtime.run({ prompt: 'first', workdir });
      expect(before.status).toBe('success');
      const earlier = await runtime.runs.list();
      const earlierEvents = await runtime.runs.events(earlier[0]!.id);
      const session = runtime.sessions.get(earlier[0]!.session_id!);
      const store = await runtime.store();
      const blobs = new FsBlobStore(join(home, 'artifacts'));

      // Before each write: no byte free and no WAL space left over from an earlier failed write.
      const fillUp = () => {
        disk.free();
        truncateWal(join(home, 'keel.db'));
        disk.fill();
      };

      // Starting a run: the SDK's run() and start() both refuse before anything runs.
      for (const start of [
        () => runtime.run({ prompt: 'second', workdir }),
        () => runtime.start({ prompt: 'x', workdir }),
      ]) {
        fillUp();
        const error = await failureOf(start);
        expect(error.code).toBe('STORE_ERROR');
        expect(error.message).toMatch(/the disk is full/);
        expect(error.details).toMatchObject({ reason: 'disk_full', code: 'SQLITE_FULL' });
      }
      // A session message.
      fillUp();
      const append = await failureOf(() =>
        runtime.sessions.append(session.id, { role: 'user', content: 'more' }),
      );
      expect(append).toMatchObject({ code: 'STORE_ERROR', details: { reason: 'disk_full' } });
      // The write_file tool: a clear TOOL_ERROR, and the file keeps its old content (not a truncated one).
      fillUp();
      const write = await failureOf(() =>
        runtime.callTool('write_file', { path: 'notes.md', content: 'new notes '.repeat(2000) }, workdir),
      );
      expect(write.code).toBe('TOOL_ERROR');
      expect(write.message).toMatch(/the disk is full \(ENOSPC\)/);
      expect(readFileSync(join(workdir, 'notes.md'), 'utf8')).toBe('the original notes\n');
      // An artifact: neither the payload nor its record, and no half-written payload left behind.
      fillUp();
      const put = await failureOf(() => blobs.put(`${before.run_id}/art_1`, 'x'.repeat(100_000)));
      expect(put).toMatchObject({ code: 'STORE_ERROR', details: { reason: 'disk_full', code: 'ENOSPC' } });
      expect(
        existsSync(join(home, 'artifacts', before.run_id))
          ? readdirSync(join(home, 'artifacts', before.run_id))
          : [],
      ).toEqual([]);
      fillUp();
      const record = await failureOf(() =>
        store.addArtifact({
          id: 'art_1',
          run_id: before.run_id,
          step_id: null,
          node_id: null,
          name: 'report',
          kind: 'report',
          media_type: 'application/json',
          metadata: {},
          uri: 'file:x',
          size: 1,
          sha256: 'x',
        }),
      );
      expect(record).toMatchObject({ code: 'STORE_ERROR', details: { reason: 'disk_full' } });

      // Reads keep working on a full disk.
      expect((await runtime.runs.events(earlier[0]!.id)).length).toBe(earlierEvents.length);
      expect(runtime.sessions.detail(session.id).messages.length).toBe(2);

      disk.free();

      const after = await runtime.run({ prompt: 'third', workdir });
      expect(after.status).toBe('success');
      runtime.sessions.append(session.id, { role: 'user', content: 'more' });
      expect(runtime.sessions.detail(session.id).messages.length).toBe(3);
      await runtime.callTool('write_file', { path: 'notes.md', content: 'new notes\n' }, workdir);
      expect(readFileSync(join(workdir, 'notes.md'), 'utf8')).toBe('new notes\n');
      const stored = await blobs.put(`${before.run_id}/art_1`, 'payload');
      await store.addArtifact({
        id: 'art_1',
        run_id: before.run_id,
        step_id: null,
        node_id: null,
        name: 'report',
        kind: 'report',
        media_type: 'application/json',
        metadata: {},
        ...stored,
      });
      expect(Buffer.from(await runtime.artifacts.read('art_1')).toString()).toBe('payload');

      expect(integrityOf(join(home, 'keel.db'))).toBe('ok');
      const runs = await runtime.runs.list();
      expect(runs.map((run) => run.status).sort()).toEqual(['succeeded', 'succeeded']);
      for (const run of runs) expectGapless((await runtime.runs.events(run.id)).map((event) => event.seq));
      expect(await runtime.runs.events(earlier[0]!.id)).toEqual(earlierEvents);
    });
  },
);

describe.skipIf(cannotMount)(
  `a disk that fills during a run${cannotMount ? ` (skipped: ${cannotMount})` : ''}`,
  () => {
    test('the run stops with STORE_ERROR at once; with space again it is recovered from its checkpoint and ends, its events gapless', async () => {
      const disk = mountSmallDisk();
      const home = join(disk.path, 'home');
      const workdir = join(disk.path, 'work');
      mkdirSync(workdir, { recursive: true });
      mkdirSync(home, { recursive: true });
      // A short lease, so the stopped run is orphaned (and recoverable) soon.
      writeFileSync(join(home, 'config.json'), JSON.stringify({ runs: { lease_ms: 500 } }));
      const model = await startMockModel({
        script: [{ toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }] }, { text: 'listed' }],
      });
      const runtime = createRuntime({
        runtimeDir: home,
        model: 'mock-model',
        modelBaseUrl: model.url,
        env: {},
      });
      try {
        let filled = false;
        const failure = await failureOf(() =>
          runtime.run(
            { prompt: 'list the files', workdir },
            {
              onEvent: (event) => {
                if (event.type !== 'tool_call' || filled) return;
                filled = true;
                truncateWal(join(home, 'keel.db'));
                disk.fill();
              },
            },
          ),
        );
        expect(failure).toMatchObject({
          code: 'STORE_ERROR',
          details: { reason: 'disk_full', code: 'SQLITE_FULL' },
        });
        const [run] = await runtime.runs.list();
        expect(run!.status).toBe('running'); // its end could not be written either: it waits to be recovered

        disk.free();
        await eventually(
          () =>
            runtime.recoverRun(run!.id).then(
              () => true,
              () => false,
            ),
          {
            what: 'the stopped run to be orphaned and recovered',
            timeoutMs: 10_000,
          },
        );
        await runtime.drive(run!.id);
        expect(await runtime.runs.get(run!.id)).toMatchObject({ status: 'succeeded' });
        const events = await runtime.runs.events(run!.id);
        expectGapless(events.map((event) => event.seq));
        expect(events.at(-1)?.type).toBe('done');
        expect(integrityOf(join(home, 'keel.db'))).toBe('ok');
      } finally {
        await runtime.close();
        await model.close();
        disk.remove();
      }
    });
  },
);
