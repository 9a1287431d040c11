import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mountSmallDisk, smallDiskUnavailable } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { SessionLog } from '../../src/sessions/index.ts';

// A session log on a disk that fills up, with appends written off the event loop: the failed write is cut
// back to the last whole entry, the appends queued behind it fail with it (the log never holds an entry
// whose predecessor was lost), and with space again seq goes on without a gap.

const cannotMount = smallDiskUnavailable();
const skipped = cannotMount ? ` (skipped: ${cannotMount})` : '';
const delta = (content: string) => ({ type: 'text_delta' as const, content });
const diskFull = expect.objectContaining({
  code: 'STORE_ERROR',
  message: expect.stringMatching(/the disk is full/),
  details: expect.objectContaining({ reason: 'disk_full', code: 'ENOSPC' }),
});

describe.skipIf(cannotMount)(`session logs on a full disk${skipped}`, () => {
  test('a line the disk takes only part of is cut off; what queued behind it fails too; seq stays gapless', async () => {
    const disk = mountSmallDisk({ sizeBytes: 1024 * 1024 });
    try {
      const path = (id: string) => join(disk.path, `${id}.jsonl`);
      const log = new SessionLog(path);
      await log.append('s1', delta('first'));
      // The log's last page still has room, so a long line is written in part before ENOSPC.
      disk.fill();
      const long = log.append('s1', delta('y'.repeat(12_000)));
      // A few microtasks later the long line's write has begun (it cannot end before the loop turns): this
      // one waits behind it.
      for (let hop = 0; hop < 20; hop++) await Promise.resolve();
      const behind = log.append('s1', delta('behind'));
      // Space again the moment the long line failed: still, the line behind it is not written after the gap.
      const failed = long.catch((error: unknown) => {
        disk.free();
        return error;
      });
      expect(await failed).toEqual(diskFull);
      await expect(behind).rejects.toEqual(diskFull);
      expect(readFileSync(path('s1'), 'utf8').endsWith('}\n')).toBe(true);
      expect(await log.lastSeq('s1')).toBe(1);
      expect((await new SessionLog(path).read('s1')).map((entry) => entry.seq)).toEqual([1]);
      expect((await log.append('s1', delta('second'))).seq).toBe(2);
      expect((await new SessionLog(path).read('s1')).map((entry) => entry.event)).toEqual([
        delta('first'),
        delta('second'),
      ]);
    } finally {
      disk.remove();
    }
  });
});
