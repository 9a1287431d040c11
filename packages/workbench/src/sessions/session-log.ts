import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import type { LogEntry, SessionEvent } from './types.ts';

/**
 * The JSONL logs of sessions, one file each. Appends are synchronous, one `write` per line: the line is on
 * its way to disk before anyone is told of it, and a reader on the same thread never sees half a line. A
 * file cut by a crash mid-line is repaired on first use: the torn last line is dropped (it was never
 * broadcast) and seq continues from the last complete line, so no entry is lost or doubled.
 */
export class SessionLog {
  readonly #pathOf: (sessionId: string) => string;
  readonly #lastSeq = new Map<string, number>();

  constructor(pathOf: (sessionId: string) => string) {
    this.#pathOf = pathOf;
  }

  append(sessionId: string, event: SessionEvent): LogEntry {
    const seq = this.lastSeq(sessionId) + 1;
    const entry: LogEntry = { seq, timestamp: new Date().toISOString(), event };
    const path = this.#pathOf(sessionId);
    const fd = openSync(path, 'a');
    try {
      writeSync(fd, `${JSON.stringify(entry)}\n`);
    } finally {
      closeSync(fd);
    }
    this.#lastSeq.set(sessionId, seq);
    return entry;
  }

  /** The seq of the last complete entry (0 for none), repairing a torn file the first time. */
  lastSeq(sessionId: string): number {
    const known = this.#lastSeq.get(sessionId);
    if (known !== undefined) return known;
    const entries = this.#load(sessionId, true);
    const last = entries.at(-1)?.seq ?? 0;
    this.#lastSeq.set(sessionId, last);
    return last;
  }

  /** Entries with seq > after, at most `limit`. */
  read(sessionId: string, after = 0, limit = Number.POSITIVE_INFINITY): LogEntry[] {
    const entries = this.#load(sessionId, false).filter((entry) => entry.seq > after);
    return Number.isFinite(limit) ? entries.slice(0, limit) : entries;
  }

  remove(sessionId: string): void {
    rmSync(this.#pathOf(sessionId), { force: true });
    this.#lastSeq.delete(sessionId);
  }

  exists(sessionId: string): boolean {
    return existsSync(this.#pathOf(sessionId));
  }

  #load(sessionId: string, repair: boolean): LogEntry[] {
    const path = this.#pathOf(sessionId);
    if (!existsSync(path)) {
      if (repair) mkdirSync(dirname(path), { recursive: true });
      return [];
    }
    const buffer = readFileSync(path);
    const entries: LogEntry[] = [];
    let start = 0;
    let good = 0;
    while (start < buffer.length) {
      const end = buffer.indexOf(10, start);
      if (end === -1) break; // a last line without its newline: torn by a crash
      try {
        entries.push(JSON.parse(buffer.subarray(start, end).toString('utf8')) as LogEntry);
      } catch {
        break; // an unreadable line can only be the torn tail; nothing after it is trusted
      }
      start = end + 1;
      good = start;
    }
    if (repair && good < buffer.length) {
      const fd = openSync(path, 'r+');
      try {
        ftruncateSync(fd, good);
      } finally {
        closeSync(fd);
      }
    }
    return entries;
  }
}
