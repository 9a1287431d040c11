// The console's reading of a run's SSE stream (framing: web-client's sse.test.ts): following a run across drops
// from the last seq delivered, without a browser.
import { describe, expect, test } from 'vitest';
import { ApiError } from '../src/api/errors.ts';
import { followRunEvents, type readRunEvents } from '../src/console/api/run-stream.ts';
import type { RunEventRecord } from '../src/console/api/runtime-types.ts';

const text = (seq: number, content: string): RunEventRecord => ({
  seq,
  event: { type: 'text_delta', content, session_id: 's' },
});

describe('followRunEvents', () => {
  /** A fake server: each connection serves the stored events after the cursor, then `ends` says how it ends. */
  function fakeServer(stored: RunEventRecord[], ends: ('drop' | 'end')[]) {
    const cursors: number[] = [];
    const read: typeof readRunEvents = async (_runId, after, onRecord, _signal, onOpen) => {
      cursors.push(after);
      onOpen?.();
      const how = ends.shift() ?? 'end';
      const page = stored.filter((record) => record.seq > after);
      // A dropped connection delivers part of what there is, then fails.
      const delivered = how === 'drop' ? page.slice(0, 1) : page;
      for (const record of delivered) onRecord(record);
      if (how === 'drop') throw new TypeError('network error');
    };
    return { read, cursors };
  }

  test('after a drop it reconnects from the last seq delivered: every event once, in order', async () => {
    const stored = [text(1, 'a'), text(2, 'b'), text(3, 'c')];
    const server = fakeServer(stored, ['drop', 'drop', 'end']);
    const seen: RunEventRecord[] = [];
    const troubles: unknown[] = [];
    let cursor = 0;
    await followRunEvents({
      runId: 'run_1',
      cursor: () => cursor,
      onRecord: (record) => {
        cursor = record.seq;
        seen.push(record);
      },
      finished: async () => cursor >= 3,
      onTrouble: (error) => troubles.push(error),
      signal: new AbortController().signal,
      read: server.read,
      backoffMs: () => 0,
    });
    expect(seen.map((record) => record.seq)).toEqual([1, 2, 3]);
    expect(server.cursors).toEqual([0, 1, 2]);
    // Each drop was reported, and each reconnection cleared it.
    expect(troubles.map((error) => (error === null ? null : 'trouble'))).toEqual([
      'trouble',
      null,
      'trouble',
      null,
    ]);
  });

  test('a stream that ends before the run does (the idle timeout) is opened again', async () => {
    const stored = [text(1, 'a')];
    const server = fakeServer(stored, ['end', 'end']);
    let cursor = 0;
    let checks = 0;
    await followRunEvents({
      runId: 'run_1',
      cursor: () => cursor,
      onRecord: (record) => {
        cursor = record.seq;
        // The run's last event arrives while the second stream is open.
        if (cursor === 1) stored.push(text(2, 'b'));
      },
      finished: async () => {
        checks += 1;
        return cursor >= 2;
      },
      signal: new AbortController().signal,
      read: server.read,
      backoffMs: () => 0,
    });
    expect(cursor).toBe(2);
    expect(server.cursors).toEqual([0, 1]);
    expect(checks).toBe(2);
  });

  test('an unknown run ends the follow with its error; an abort ends it quietly', async () => {
    const troubles: unknown[] = [];
    const notFound = new ApiError(404, { code: 'RUN_NOT_FOUND', message: "Run 'run_x' not found." });
    await followRunEvents({
      runId: 'run_x',
      cursor: () => 0,
      onRecord: () => {},
      finished: async () => false,
      onTrouble: (error) => troubles.push(error),
      signal: new AbortController().signal,
      read: async () => {
        throw notFound;
      },
    });
    expect(troubles).toEqual([notFound]);

    const controller = new AbortController();
    let reads = 0;
    await followRunEvents({
      runId: 'run_1',
      cursor: () => 0,
      onRecord: () => {},
      finished: async () => false,
      signal: controller.signal,
      read: async () => {
        reads += 1;
        controller.abort();
        throw new DOMException('aborted', 'AbortError');
      },
    });
    expect(reads).toBe(1);
  });
});
