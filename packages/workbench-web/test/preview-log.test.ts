// The preview panel's log: the end read once, the channel's chunks after its seq, each start on its own,
// and the later of two records that cross (an answer and a channel message).
import { describe, expect, test } from 'vitest';
import type { Preview } from '../src/api/types.ts';
import {
  freshLog,
  later,
  readingLog,
  withChunk,
  withoutRead,
  withRead,
} from '../src/pages/task/preview-log.ts';

const chunk = (seq: number, text = `${seq};`) => ({ repository: 'app', seq, text });
const read = (log: string, seq: number) => ({ repository: 'app', log, seq, truncated: false });

describe('a preview log', () => {
  test('chunks heard while the log is read wait for it: those it holds are not shown twice', () => {
    let log = readingLog(undefined, 't1');
    log = withChunk(log, chunk(3));
    log = withChunk(log, chunk(4));
    expect(log.text).toBe('');
    log = withRead(log, read('1;2;3;', 3));
    expect(log).toMatchObject({ text: '1;2;3;4;', seq: 4, early: null });
    // Live now: a repeated chunk is dropped, the next appended.
    log = withChunk(withChunk(log, chunk(4)), chunk(5));
    expect(log).toMatchObject({ text: '1;2;3;4;5;', seq: 5 });
  });

  test('read again after a dropped connection, the same start keeps its text until the read answers', () => {
    const live = withChunk(freshLog('t1'), chunk(1));
    const reading = readingLog(live, 't1');
    expect(reading.text).toBe('1;');
    expect(withRead(withChunk(reading, chunk(3)), read('1;2;', 2)).text).toBe('1;2;3;');
    // A read that failed shows what waited after what was there.
    expect(withoutRead(withChunk(reading, chunk(2))).text).toBe('1;2;');
    // Another start has a log of its own.
    expect(readingLog(live, 't2')).toMatchObject({ startedAt: 't2', text: '', seq: 0 });
  });

  test('keeps the end of a long output, and says so', () => {
    const long = withChunk(
      withChunk(freshLog('t1'), chunk(1, 'a'.repeat(150_000))),
      chunk(2, 'b'.repeat(100_000)),
    );
    expect(long.text).toHaveLength(200_000);
    expect(long.text.endsWith('b'.repeat(100_000))).toBe(true);
    expect(long.truncated).toBe(true);
  });

  test('the later record wins, whichever arrives last', () => {
    const record = (state: Preview['state'], started_at = '2026-11-28T10:00:00.000Z') =>
      ({ repository: 'app', state, started_at }) as Preview;
    const running = record('running');
    expect(later(running, record('starting'))).toBe(running);
    expect(later(record('starting'), running)).toBe(running);
    const stopped = record('stopped');
    expect(later(running, stopped)).toBe(stopped);
    const again = record('starting', '2026-11-28T10:05:00.000Z');
    expect(later(stopped, again)).toBe(again);
    expect(later(again, stopped)).toBe(again);
  });
});
