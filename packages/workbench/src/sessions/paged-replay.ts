import { setImmediate as nextTurn } from 'node:timers/promises';

/** Log lines per page of a replay: a page holds the event loop for a few milliseconds, not the whole log. */
export const replayPageLines = 500;

export interface PagedReplay {
  /** The stored lines of the entries after `after`, at most `limit` (`SessionLog.readLines`). */
  read: (after: number, limit: number) => Promise<string[]>;
  /** Sends one stored line. */
  send: (line: string) => void;
  /** False once the reader is gone (socket closed, subscription replaced): the replay stops there. */
  active: () => boolean;
  pageLines?: number;
}

/**
 * Sends the entries with seq in (after, end] a page at a time, yielding to the event loop between pages so
 * a 100,000-entry log does not hold the service (its `/health`, its other sockets) for the whole replay
 * (the pages are read off the loop; sending one is the loop's work).
 * Resolves with the last seq sent (`after` when there was nothing, or the reader left before a page).
 */
export async function replayInPages(after: number, end: number, replay: PagedReplay): Promise<number> {
  const pageLines = replay.pageLines ?? replayPageLines;
  let sent = after;
  while (sent < end && replay.active()) {
    const lines = await replay.read(sent, Math.min(pageLines, end - sent));
    if (!replay.active()) break; // the reader left while the page was read
    if (lines.length === 0) break; // the log was removed meanwhile: nothing more to send
    for (const line of lines) replay.send(line);
    sent += lines.length;
    if (sent < end) await nextTurn();
  }
  return sent;
}
