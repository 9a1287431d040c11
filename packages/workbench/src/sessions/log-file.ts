import { mkdir, open, readFile, truncate } from 'node:fs/promises';
import { dirname } from 'node:path';
import { storeFailure } from '../store/index.ts';
import type { LogEntry, SessionEvent } from './types.ts';

/** An append waiting for its write: its event as JSON already (what it was when appended). */
interface Pending {
  timestamp: string;
  json: string;
  event: SessionEvent;
  resolve: (entry: LogEntry) => void;
  reject: (error: unknown) => void;
}

const ignore = (): void => {};

/** About the most bytes one write takes: a long backlog goes in parts, each built in a moment on the loop. */
const writeBytes = 1024 * 1024;

/**
 * One session's JSONL log, written off the event loop. Appends queue in order; one write at a time takes
 * every append queued so far (one `write` for the lot), and an append resolves only once its line is in the
 * file, so whatever a caller is told (the entry, its broadcast, a row's last_seq) is as durable as a
 * synchronous write made it. A write that fails is cut back to the last whole entry, and it fails the
 * appends queued behind it too: the log never holds an entry whose predecessor was lost, and seq, given as
 * lines land, stays gapless.
 */
export class LogFile {
  readonly path: string;
  readonly #sessionId: string;
  /** Waited for before the file is first read (a removal of the file this one replaces). */
  readonly #after: Promise<void>;
  #index: Promise<number[]> | undefined;
  #queue: Pending[] = [];
  /** The file's writes, one after the other. */
  #writes: Promise<void> = Promise.resolve();
  #writeScheduled = false;
  /** Settles once every append made so far was written or failed. */
  #settled: Promise<void> = Promise.resolve();

  constructor(path: string, sessionId: string, after: Promise<void> = Promise.resolve()) {
    this.path = path;
    this.#sessionId = sessionId;
    this.#after = after;
  }

  /** Queues `event`; resolves with its entry once its line is in the file, rejects when it is not. */
  append(event: SessionEvent): Promise<LogEntry> {
    // Serialised now (a caller may change the object later; one that cannot be serialised throws here).
    const json = JSON.stringify(event);
    const timestamp = new Date().toISOString();
    const written = new Promise<LogEntry>((resolve, reject) => {
      this.#queue.push({ timestamp, json, event, resolve, reject });
    });
    this.#settled = written.then(ignore, ignore);
    this.#scheduleWrite();
    return written;
  }

  /** Resolves once every append made before the call was written or failed. */
  settled(): Promise<void> {
    return this.#settled;
  }

  /**
   * Where each complete line starts: entry seq N is bytes starts[N-1] to starts[N]. Only lines written are
   * in it. Loaded once (repairing a torn tail); a load that failed is tried again by the next call.
   */
  index(): Promise<number[]> {
    if (!this.#index) {
      const loading = this.#after.then(() => loadIndex(this.path));
      this.#index = loading;
      loading.catch(() => {
        if (this.#index === loading) this.#index = undefined;
      });
    }
    return this.#index;
  }

  /**
   * The lines (JSON, no newline) of the entries with seq > after, at most `limit`, once every append made
   * before the call was written or failed; [] for a file removed meanwhile.
   */
  async readLines(after: number, limit: number): Promise<string[]> {
    await this.#settled;
    const starts = await this.index();
    const last = starts.length - 1;
    const first = Math.max(0, Math.floor(after));
    const end = Math.min(last, first + (Number.isFinite(limit) ? Math.max(0, Math.floor(limit)) : last));
    if (first >= end) return [];
    const from = starts[first] ?? 0;
    const bytes = await readBytes(this.path, from, (starts[end] ?? from) - from);
    if (!bytes) return [];
    return bytes.toString('utf8').slice(0, -1).split('\n');
  }

  #scheduleWrite(): void {
    if (this.#writeScheduled || this.#queue.length === 0) return;
    this.#writeScheduled = true;
    this.#writes = this.#writes.then(() => this.#writeQueued());
  }

  /** What queued since the last write (up to `writeBytes`), in one write. */
  async #writeQueued(): Promise<void> {
    this.#writeScheduled = false;
    let count = 0;
    for (let size = 0; count < this.#queue.length && size < writeBytes; count++) {
      size += (this.#queue[count]?.json.length ?? 0) + 64;
    }
    const batch = this.#queue.splice(0, count);
    if (batch.length === 0) return; // failed with the write before it
    let entries: LogEntry[];
    try {
      const starts = await this.index();
      const end = starts.at(-1) ?? 0;
      const seq = starts.length;
      const lines = batch.map(
        (each, i) =>
          `{"seq":${seq + i},"timestamp":${JSON.stringify(each.timestamp)},"event":${each.json}}\n`,
      );
      const bytes = Buffer.from(lines.join(''));
      await appendBytes(this.path, bytes, end);
      let at = end;
      for (const line of lines) {
        at += Buffer.byteLength(line);
        starts.push(at);
      }
      entries = batch.map((each, i) => ({ seq: seq + i, timestamp: each.timestamp, event: each.event }));
    } catch (error) {
      const failure =
        storeFailure(error, `Could not append to the log of session '${this.#sessionId}'`) ?? error;
      // What was queued behind the failed lines fails with them.
      for (const each of [...batch, ...this.#queue.splice(0)]) each.reject(failure);
      return;
    }
    for (const [i, each] of batch.entries()) each.resolve(entries[i] as LogEntry);
    this.#scheduleWrite(); // what this write left for the next
  }
}

/** Appends `bytes` to the log; when that fails, cuts off what part did land, so it ends on a whole entry. */
async function appendBytes(path: string, bytes: Buffer, end: number): Promise<void> {
  const handle = await open(path, 'a');
  try {
    // A write may take only part (a disk filling up): the rest follows, or it fails.
    for (let written = 0; written < bytes.length; ) {
      written += (await handle.write(bytes, written)).bytesWritten;
    }
  } catch (error) {
    // If even the cut fails, the next load drops the torn tail.
    await handle.truncate(end).catch(ignore);
    throw error;
  } finally {
    await handle.close();
  }
}

/** `length` bytes of the file from `from`, or undefined when the file is gone. */
async function readBytes(path: string, from: number, length: number): Promise<Buffer | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const bytes = Buffer.alloc(length);
    for (let read = 0; read < length; ) {
      const { bytesRead } = await handle.read(bytes, read, length - read, from + read);
      if (bytesRead === 0) return undefined; // cut shorter meanwhile: not the lines indexed
      read += bytesRead;
    }
    return bytes;
  } finally {
    await handle.close();
  }
}

/** Indexes the file's complete lines, cutting off a torn tail (it was never broadcast). */
async function loadIndex(path: string): Promise<number[]> {
  let buffer: Buffer;
  try {
    buffer = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dirname(path), { recursive: true });
    return [0];
  }
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
  if (good < buffer.length) await truncate(path, good);
  return starts;
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
