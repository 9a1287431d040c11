import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { storeFailure } from '../store/index.ts';
import type { LogEntry, SessionEvent } from './types.ts';

/** Where each line of a log starts: entry seq N (gapless from 1) is bytes starts[N-1] to starts[N]. */
interface LineIndex {
  starts: number[];
}

/**
 * The JSONL logs of sessions, one file each. Appends are synchronous, one `write` per line: the line is on
 * its way to disk before anyone is told of it, and a reader on the same thread never sees half a line. A
 * file cut by a crash mid-line is repaired on first use: the torn last line is dropped (it was never
 * broadcast) and seq continues from the last complete line, so no entry is lost or doubled.
 *
 * Reads go through an index of line offsets (built once per session, extended by appends), so a page of a
 * long log costs the page, not the log.
 */
export class SessionLog {
  readonly #pathOf: (sessionId: string) => string;
  readonly #index = new Map<string, LineIndex>();

  constructor(pathOf: (sessionId: string) => string) {
    this.#pathOf = pathOf;
  }

  append(sessionId: string, event: SessionEvent): LogEntry {
    const index = this.#indexOf(sessionId);
    const seq = index.starts.length;
    const entry: LogEntry = { seq, timestamp: new Date().toISOString(), event };
    const line = Buffer.from(`${JSON.stringify(entry)}\n`);
    const end = index.starts.at(-1) ?? 0;
    let fd: number | undefined;
    try {
      fd = openSync(this.#pathOf(sessionId), 'a');
      // A write may take only part of the line (a disk filling up): the rest follows, or it fails.
      for (let written = 0; written < line.length; ) written += writeSync(fd, line, written);
    } catch (error) {
      // Cut off what part of the line did land, so the log still ends on a whole entry and seq stays gapless.
      if (fd !== undefined) cutBack(fd, end);
      throw storeFailure(error, `Could not append to the log of session '${sessionId}'`) ?? error;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    index.starts.push(end + line.length);
    return entry;
  }

  /** The seq of the last complete entry (0 for none), repairing a torn file the first time. */
  lastSeq(sessionId: string): number {
    return this.#indexOf(sessionId).starts.length - 1;
  }

  /** Entries with seq > after, at most `limit`. */
  read(sessionId: string, after = 0, limit = Number.POSITIVE_INFINITY): LogEntry[] {
    return this.readLines(sessionId, after, limit).map((line) => JSON.parse(line) as LogEntry);
  }

  /**
   * The same entries as `read`, as their JSON text (one entry each, no newline): for senders that wrap
   * them without parsing every entry again.
   */
  readLines(sessionId: string, after = 0, limit = Number.POSITIVE_INFINITY): string[] {
    const { starts } = this.#indexOf(sessionId);
    const last = starts.length - 1;
    const first = Math.max(0, Math.floor(after));
    const end = Math.min(last, first + (Number.isFinite(limit) ? Math.max(0, Math.floor(limit)) : last));
    if (first >= end) return [];
    const from = starts[first] ?? 0;
    const bytes = Buffer.alloc((starts[end] ?? from) - from);
    const fd = openSync(this.#pathOf(sessionId), 'r');
    try {
      readSync(fd, bytes, 0, bytes.length, from);
    } finally {
      closeSync(fd);
    }
    const text = bytes.toString('utf8');
    return text.slice(0, -1).split('\n');
  }

  remove(sessionId: string): void {
    rmSync(this.#pathOf(sessionId), { force: true });
    this.#index.delete(sessionId);
  }

  exists(sessionId: string): boolean {
    return existsSync(this.#pathOf(sessionId));
  }

  #indexOf(sessionId: string): LineIndex {
    let index = this.#index.get(sessionId);
    if (!index) {
      index = this.#load(sessionId);
      this.#index.set(sessionId, index);
    }
    return index;
  }

  /** Indexes the file's complete lines, cutting off a torn tail (it was never broadcast). */
  #load(sessionId: string): LineIndex {
    const path = this.#pathOf(sessionId);
    if (!existsSync(path)) {
      mkdirSync(dirname(path), { recursive: true });
      return { starts: [0] };
    }
    const buffer = readFileSync(path);
    const starts = [0];
    let start = 0;
    while (start < buffer.length) {
      const end = buffer.indexOf(10, start);
      if (end === -1) break; // a last line without its newline: torn by a crash
      const seq = seqOf(buffer.subarray(start, end));
      // An unreadable line, or one out of order, can only be the torn tail; nothing after it is trusted.
      if (seq !== starts.length) break;
      start = end + 1;
      starts.push(start);
    }
    const good = starts.at(-1) ?? 0;
    if (good < buffer.length) {
      const fd = openSync(path, 'r+');
      try {
        ftruncateSync(fd, good);
      } finally {
        closeSync(fd);
      }
    }
    return { starts };
  }
}

/** Truncates an open log back to `size` bytes; if even that fails, the next load drops the torn tail. */
function cutBack(fd: number, size: number): void {
  try {
    ftruncateSync(fd, size);
  } catch {}
}

/** The seq of one stored line, or undefined when the line is not a whole entry. */
function seqOf(line: Buffer): number | undefined {
  try {
    const entry = JSON.parse(line.toString('utf8')) as Partial<LogEntry>;
    return typeof entry.seq === 'number' && entry.event !== undefined ? entry.seq : undefined;
  } catch {
    return undefined;
  }
}
