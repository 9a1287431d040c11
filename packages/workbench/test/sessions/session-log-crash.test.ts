import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { type SeededRandom, seededRandom } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { SessionLog } from '../../src/sessions/index.ts';
import { tempDir } from '../harness.ts';
import { entryContent } from './session-log-content.ts';

// A process appending to a session log is SIGKILLed at seeded random moments; some kills also leave a
// torn last line (what a power cut or a full disk leaves: SIGKILL alone cannot cut one write in two).
// After each, a fresh SessionLog (a restarted workbench) must read every complete entry once, in order,
// none torn, cut the torn tail off the file, and the next writer must continue the seq.

const trials = 12;
const cyclesPerTrial = 3;
const writer = join(import.meta.dirname, 'session-log-writer.ts');

/** Starts a writer, waits for the seq it continues after, kills it `killAfterMs` later. */
async function killWriterMidway(dir: string, killAfterMs: number): Promise<number> {
  const child = spawn(process.execPath, ['--conditions=@keel/source', writer, dir, 's1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_COMPILE_CACHE: join(tmpdir(), 'keel-session-log-writer-cache') },
  });
  let out = '';
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_code, signal) => resolve(signal)),
  );
  const after = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /after (\d+)\n/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    void exited.then(() => reject(new Error(`the writer exited before it started:\n${out}`)));
  });
  // A random moment of its work is the point of the test, not a wait for something.
  await delay(killAfterMs);
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  return after;
}

/** What a crash mid-write can leave besides SIGKILL: the last line cut short, or the next one begun. */
function tear(random: SeededRandom, path: string): 'cut' | 'begun' | 'none' {
  const bytes = existsSync(path) ? readFileSync(path) : Buffer.alloc(0);
  const lastStart = bytes.lastIndexOf(10, bytes.length - 2) + 1;
  const mode = random.pick(['cut', 'begun', 'none', 'none'] as const);
  if (mode === 'cut' && bytes.length - lastStart > 1) {
    truncateSync(path, random.int(lastStart + 1, bytes.length - 1));
    return 'cut';
  }
  if (mode === 'begun') {
    const next = Buffer.from(
      `${JSON.stringify({ seq: 999_999, timestamp: new Date().toISOString(), event: { type: 'text_delta', content: entryContent(7) } })}\n`,
    );
    appendFileSync(path, next.subarray(0, random.int(1, next.length - 1)));
    return 'begun';
  }
  return 'none';
}

function completeLines(path: string): number {
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  return text.length === 0 ? 0 : text.split('\n').length - 1;
}

describe('session logs under SIGKILL', () => {
  test(`${trials} seeded trials: no torn, lost or doubled entry; the index recovers and seq continues`, async () => {
    const problems: string[] = [];
    const tears: Record<string, number> = { cut: 0, begun: 0, none: 0 };
    let entries = 0;
    // A few trials at once, each in its own directory: the writers' start-up is most of the time.
    const seeds = Array.from({ length: trials }, (_, index) => index + 1);
    const trial = async (seed: number) => {
      const random = seededRandom(seed);
      const dir = tempDir('log-crash');
      const path = join(dir, 's1.jsonl');
      let known = 0;
      for (let cycle = 1; cycle <= cyclesPerTrial; cycle++) {
        const after = await killWriterMidway(dir, random.int(0, 40));
        // The writer opened the log as a restart would: it continued right after the last complete entry.
        if (after !== known)
          problems.push(`seed ${seed} cycle ${cycle}: the writer continued after ${after}, not ${known}`);
        const before = completeLines(path);
        // The kill itself may have left the last line unfinished: a cut then shortens that line, not a
        // complete one.
        const endedClean = !existsSync(path) || readFileSync(path).at(-1) === 10;
        const torn = tear(random, path);
        tears[torn] = (tears[torn] ?? 0) + 1;
        const expected = torn === 'cut' && endedClean ? before - 1 : before;
        const log = new SessionLog((id) => join(dir, `${id}.jsonl`));
        const read = await log.read('s1');
        const seqs = read.map((entry) => entry.seq);
        if (
          !isDeepStrictEqual(
            seqs,
            seqs.map((_, index) => index + 1),
          ) ||
          seqs.length !== expected
        ) {
          problems.push(
            `seed ${seed} cycle ${cycle} (${torn}): read seqs 1..${seqs.length}, expected ${expected}`,
          );
        }
        const wrong = read.find(
          (entry) =>
            JSON.stringify(entry.event) !==
            JSON.stringify({ type: 'text_delta', content: entryContent(entry.seq) }),
        );
        if (wrong) problems.push(`seed ${seed} cycle ${cycle}: entry ${wrong.seq} is not what was written`);
        const lastSeq = await log.lastSeq('s1');
        if (lastSeq !== expected) problems.push(`seed ${seed} cycle ${cycle}: lastSeq ${lastSeq}`);
        // The torn tail is gone from the file too: only whole lines stay, each exactly one entry.
        const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
        if (completeLines(path) !== expected || (text.length > 0 && !text.endsWith('\n'))) {
          problems.push(`seed ${seed} cycle ${cycle}: the file keeps a torn tail after the log was opened`);
        }
        for (let page = 0; page < 5; page++) {
          const from = random.int(0, expected);
          const limit = random.int(0, 50);
          if (!isDeepStrictEqual(await log.read('s1', from, limit), read.slice(from, from + limit))) {
            problems.push(`seed ${seed} cycle ${cycle}: page after ${from} limit ${limit} differs`);
          }
          const lines = (await log.readLines('s1', from, limit)).map((line) => JSON.parse(line) as unknown);
          if (!isDeepStrictEqual(lines, read.slice(from, from + limit))) {
            problems.push(`seed ${seed} cycle ${cycle}: raw page after ${from} limit ${limit} differs`);
          }
        }
        known = expected;
      }
      entries += known;
      // This process, as the restarted workbench, appends the next entry.
      const log = new SessionLog((id) => join(dir, `${id}.jsonl`));
      const next = await log.append('s1', { type: 'text_delta', content: entryContent(known + 1) });
      expect(next.seq).toBe(known + 1);
      expect(completeLines(path)).toBe(known + 1);
    };
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let seed = seeds.shift(); seed !== undefined; seed = seeds.shift()) await trial(seed);
      }),
    );
    console.log(
      `session logs: ${trials} trials × ${cyclesPerTrial} kills, ${entries} entries kept; torn tails: cut ${tears.cut}, begun ${tears.begun}, none ${tears.none}`,
    );
    expect(problems).toEqual([]);
  }, 120_000);
});
