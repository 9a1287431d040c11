import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createWorkbench } from '../../src/index.ts';
import { type LogEntry, SessionLog } from '../../src/sessions/index.ts';
import { replayInPages } from '../../src/sessions/paged-replay.ts';
import { tempDir } from '../harness.ts';

// The session log writes off the event loop (issue #44). Appends still land in order, each once; a reader
// sees every entry appended before it asked; what queues while a write runs goes in one write; and closing
// the service waits for what is queued.

const delta = (content: string) => ({ type: 'text_delta' as const, content });

function logIn(dir: string): SessionLog {
  return new SessionLog((id) => join(dir, `${id}.jsonl`));
}

/** The file's lines as [seq, content], read as a restarted workbench would not: straight from disk. */
function fileEntries(dir: string, sessionId: string): [number, string][] {
  const path = join(dir, `${sessionId}.jsonl`);
  if (!existsSync(path)) return [];
  const text = readFileSync(path, 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LogEntry)
    .map((entry) => [entry.seq, (entry.event as { content: string }).content]);
}

/** The write(2) calls this process made so far (Linux), or undefined where that cannot be read. */
function writeCalls(): number | undefined {
  try {
    return Number(/syscw: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1]);
  } catch {
    return undefined;
  }
}

describe('session logs written off the event loop', () => {
  test('many concurrent appends to several sessions land in order, each once, with gapless seqs', async () => {
    const dir = tempDir('log-async');
    const log = logIn(dir);
    const sessions = ['a', 'b', 'c'];
    const writers = 8;
    const perWriter = 250;
    // Writers interleave: each appends to every session in turn, yielding between some appends.
    const appended = new Map(sessions.map((id) => [id, [] as string[]]));
    const resolved = new Map(sessions.map((id) => [id, [] as LogEntry[]]));
    const writer = async (w: number) => {
      const waits: Promise<unknown>[] = [];
      for (let i = 0; i < perWriter; i++) {
        for (const id of sessions) {
          const content = `${id} w${w} #${i}`;
          appended.get(id)?.push(content);
          waits.push(log.append(id, delta(content)).then((entry) => resolved.get(id)?.push(entry)));
        }
        if (i % 7 === w % 7) await new Promise((resolve) => setImmediate(resolve));
      }
      await Promise.all(waits);
    };
    await Promise.all(Array.from({ length: writers }, (_, w) => writer(w)));
    for (const id of sessions) {
      const order = appended.get(id) ?? [];
      const expected = order.map((content, i): [number, string] => [i + 1, content]);
      // On disk, in the reader's view, and as each append was told: the same order, seq 1..n.
      expect(fileEntries(dir, id)).toEqual(expected);
      expect(
        (await log.read(id)).map((entry) => [
          entry.seq,
          entry.event.type === 'text_delta' && entry.event.content,
        ]),
      ).toEqual(expected);
      expect(
        (resolved.get(id) ?? []).map((entry) => [entry.seq, (entry.event as { content: string }).content]),
      ).toEqual(expected);
      expect(await logIn(dir).lastSeq(id)).toBe(writers * perWriter);
    }
  });

  test('appends queued while a write runs go to the file together, not one write each', async (context) => {
    const before = writeCalls();
    if (before === undefined) context.skip();
    const dir = tempDir('log-batch');
    const log = logIn(dir);
    const count = 2000;
    for (let i = 1; i <= count; i++) void log.append('s1', delta(`${i}`));
    await log.flush();
    const calls = (writeCalls() ?? 0) - (before ?? 0);
    expect(fileEntries(dir, 's1')).toHaveLength(count);
    // One write for the first append, one for what queued behind it; the rest is this process's other work.
    expect(calls).toBeLessThan(count / 10);
  });

  test('a reader sees every entry appended before it asked, while appends go on', async () => {
    const dir = tempDir('log-read');
    const log = logIn(dir);
    let appended = 0;
    const problems: string[] = [];
    const reads: Promise<void>[] = [];
    for (let round = 0; round < 60; round++) {
      for (let i = 0; i < 1 + (round % 13); i++) void log.append('s1', delta(`${++appended}`));
      const asked = appended;
      reads.push(
        (async () => {
          const [last, lines] = await Promise.all([log.lastSeq('s1'), log.readLines('s1', 0)]);
          const seqs = lines.map((line) => (JSON.parse(line) as LogEntry).seq);
          if (last < asked) problems.push(`lastSeq ${last} after ${asked} appends`);
          if (seqs.length < asked || seqs.some((seq, index) => seq !== index + 1)) {
            problems.push(
              `read seqs 1..${seqs.length} (in order: ${seqs.every((s, i) => s === i + 1)}) after ${asked} appends`,
            );
          }
        })(),
      );
      if (round % 3 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(reads);
    expect(problems).toEqual([]);
  });

  test('a paged replay while appends go on sends every entry up to its end once, in order', async () => {
    const dir = tempDir('log-replay');
    const log = logIn(dir);
    for (let i = 1; i <= 1200; i++) void log.append('s1', delta(`${i}`));
    const end = await log.lastSeq('s1');
    expect(end).toBe(1200);
    const sent: number[] = [];
    let more = 1200;
    const replayed = replayInPages(0, end, {
      read: (after, limit) => {
        // Appends keep coming between the pages' reads.
        for (let i = 0; i < 25; i++) void log.append('s1', delta(`${++more}`));
        return log.readLines('s1', after, limit);
      },
      send: (line) => sent.push((JSON.parse(line) as LogEntry).seq),
      active: () => true,
      pageLines: 100,
    });
    expect(await replayed).toBe(end);
    expect(sent).toEqual(Array.from({ length: end }, (_, i) => i + 1));
    await log.flush();
    expect(fileEntries(dir, 's1').map(([seq]) => seq)).toEqual(Array.from({ length: more }, (_, i) => i + 1));
  });

  test('a removed log is gone after what was queued; the next append begins a new one at seq 1', async () => {
    const dir = tempDir('log-remove');
    const log = logIn(dir);
    for (let i = 1; i <= 50; i++) void log.append('s1', delta(`old ${i}`));
    const removed = log.remove('s1');
    const next = log.append('s1', delta('new 1'));
    await removed;
    expect((await next).seq).toBe(1);
    expect(fileEntries(dir, 's1')).toEqual([[1, 'new 1']]);
    expect(await log.exists('s1')).toBe(true);
  });

  test("a failed append fails what queued behind it; the caller's next record hears it; later appends go on", async () => {
    const home = tempDir('log-failure');
    const workbench = await createWorkbench({ home, env: {} });
    try {
      const { runner, log, hub } = workbench.services;
      const session = await runner.create('conversation', null, 'keel', { workdir: home, skillDirs: [] });
      const heard: number[] = [];
      hub.subscribe(`session:${session.id}`, (message) => {
        if (message.type === 'event') heard.push(message.seq);
      });
      runner.record(session.id, delta('kept'));
      await runner.recorded(session.id);
      // The disk fails one write: a line the log cannot take.
      const append = log.append.bind(log);
      let failNext = true;
      log.append = (id, event) => {
        if (!failNext) return append(id, event);
        failNext = false;
        return Promise.reject(Object.assign(new Error('no space left'), { code: 'STORE_ERROR' }));
      };
      runner.record(session.id, delta('lost'));
      await expect(runner.recorded(session.id)).rejects.toThrow('no space left');
      // Reported once: the session's writer goes on.
      runner.record(session.id, delta('after'));
      await runner.recorded(session.id);
      expect(
        (await log.read(session.id)).map((entry) => [
          entry.seq,
          (entry.event as { content: string }).content,
        ]),
      ).toEqual([
        [1, 'kept'],
        [2, 'after'],
      ]);
      expect(heard).toEqual([1, 2]);
      // A failure no one waited for is thrown by the session's next record.
      failNext = true;
      runner.record(session.id, delta('lost too'));
      await log.flush();
      await new Promise((resolve) => setImmediate(resolve));
      expect(() => runner.record(session.id, delta('refused'))).toThrow('no space left');
      expect(await log.lastSeq(session.id)).toBe(2);
    } finally {
      await workbench.close();
    }
  });

  test('closing the session runner (service shutdown) writes what was recorded and not yet written', async () => {
    const home = tempDir('log-close');
    const workbench = await createWorkbench({ home, env: {} });
    const { runner } = workbench.services;
    const session = await runner.create('conversation', null, 'keel', { workdir: home, skillDirs: [] });
    const count = 3000;
    for (let i = 1; i <= count; i++) runner.record(session.id, delta(`${i}`));
    await runner.close();
    // Read at once, from disk: nothing was left queued.
    const written = fileEntries(join(home, 'sessions'), session.id);
    expect(written).toHaveLength(count);
    expect(written.at(-1)).toEqual([count, `${count}`]);
    await workbench.close();
  });
});
