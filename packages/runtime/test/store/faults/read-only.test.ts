import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { mountSmallDisk, smallDiskUnavailable, startMockModel } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { createRuntime } from '../../../src/index.ts';
import { expectGapless, failureOf, integrityOf } from './fault-checks.ts';

const exec = promisify(execFile);
const cannotMount = smallDiskUnavailable();
const nobody = 65534;
// Root may write a file whatever its mode, so the read-only file is opened by an unprivileged user.
const cannotDropRoot =
  process.getuid?.() !== 0
    ? 'dropping to an unprivileged user needs root'
    : existsSync('/usr/bin/setpriv')
      ? undefined
      : 'setpriv (util-linux) is not installed';

/** A runtime home with one finished run (and its session) and one queued run, made by this process. */
async function homeWithRuns(home: string) {
  const model = await startMockModel({ script: [{ text: 'hello' }] });
  const runtime = createRuntime({ runtimeDir: home, model: 'mock-model', modelBaseUrl: model.url, env: {} });
  try {
    const done = await runtime.run({ prompt: 'hi', workdir: home });
    const queued = await runtime.start({ prompt: 'later', workdir: home }, { execute: false });
    const events = (await runtime.runs.events(done.run_id)).map((event) => event.seq);
    return { runId: done.run_id, sessionId: done.session_id, queuedId: queued.id, events };
  } finally {
    await runtime.close();
    await model.close();
  }
}

describe.skipIf(cannotDropRoot)(
  `a read-only database file${cannotDropRoot ? ` (skipped: ${cannotDropRoot})` : ''}`,
  () => {
    test('reads work; every write fails with STORE_ERROR (read_only, SQLITE_READONLY); nothing is damaged', async () => {
      const home = await mkdtemp(join(tmpdir(), 'keel-read-only-'));
      try {
        const { runId, sessionId, queuedId, events } = await homeWithRuns(home);
        for (const name of readdirSync(home, { recursive: true }) as string[])
          chownSync(join(home, name), nobody, nobody);
        chownSync(home, nobody, nobody);
        chmodSync(join(home, 'keel.db'), 0o444);

        const { stdout } = await exec('setpriv', [
          `--reuid=${nobody}`,
          `--regid=${nobody}`,
          '--clear-groups',
          process.execPath,
          join(import.meta.dirname, 'read-only-worker.ts'),
          home,
          runId,
          sessionId,
          queuedId,
        ]);
        const report = JSON.parse(stdout);
        expect(report.runs.ok).toHaveLength(2);
        expect(report.events.ok).toEqual(events);
        expect(report.messages.ok).toBe(2);
        for (const write of ['start', 'append', 'cancel']) {
          expect(report[write].error, write).toMatchObject({
            code: 'STORE_ERROR',
            message: expect.stringMatching(/read-only/),
            details: { reason: 'read_only', code: 'SQLITE_READONLY' },
          });
        }

        chmodSync(join(home, 'keel.db'), 0o644);
        expect(integrityOf(join(home, 'keel.db'))).toBe('ok');
      } finally {
        await rm(home, { recursive: true, force: true });
      }
    });
  },
);

describe.skipIf(cannotMount)(
  `a database on a read-only file system${cannotMount ? ` (skipped: ${cannotMount})` : ''}`,
  () => {
    test('opening it fails with STORE_ERROR naming the file (read_only, EROFS); writable again, everything is there', async () => {
      const disk = mountSmallDisk();
      try {
        const home = join(disk.path, 'home');
        mkdirSync(home);
        const { runId, events } = await homeWithRuns(home);
        disk.readOnly();

        const error = await failureOf(() =>
          createRuntime({
            runtimeDir: home,
            model: 'mock-model',
            modelBaseUrl: 'http://127.0.0.1:9',
            env: {},
          }),
        );
        expect(error).toMatchObject({
          code: 'STORE_ERROR',
          message: expect.stringContaining(
            `Could not open the database ${join(home, 'keel.db')}: the database or its directory is read-only`,
          ),
          details: { reason: 'read_only', code: 'EROFS', path: join(home, 'keel.db') },
        });

        disk.writable();
        const runtime = createRuntime({
          runtimeDir: home,
          model: 'mock-model',
          modelBaseUrl: 'http://127.0.0.1:9',
          env: {},
        });
        try {
          expect((await runtime.runs.get(runId)).status).toBe('succeeded');
          expect((await runtime.runs.events(runId)).map((event) => event.seq)).toEqual(events);
          expectGapless(events);
        } finally {
          await runtime.close();
        }
        expect(integrityOf(join(home, 'keel.db'))).toBe('ok');
      } finally {
        disk.remove();
      }
    });
  },
);
