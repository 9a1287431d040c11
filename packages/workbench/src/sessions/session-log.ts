import { access, rm } from 'node:fs/promises';
import { LogFile } from './log-file.ts';
import type { LogEntry, SessionEvent } from './types.ts';

/**
 * The JSONL logs of sessions, one file each, written and read off the event loop (issue #44: a service
 * streaming events must still answer at once). Each session's appends land in order, those queued while a
 * write runs together in the next write (`log-file.ts`); an append resolves once its line is in the file.
 * A reader sees every entry appended before it asked: it waits for their writes first. A file cut by a crash
 * mid-line is repaired on first use: the torn last line is dropped (it was never broadcast) and seq
 * continues from the last complete line, so no entry is lost or doubled.
 *
 * Reads go through an index of line offsets (built once per session, extended by appends), so a page of a
 * long log costs the page, not the log.
 */
export class SessionLog {
  readonly #pathOf: (sessionId: string) => string;
  readonly #files = new Map<string, LogFile>();
  /** Removals under way: a log begun again meanwhile is read once its old file is gone. */
  readonly #removals = new Map<string, Promise<void>>();

  constructor(pathOf: (sessionId: string) => string) {
    this.#pathOf = pathOf;
  }

  /**
   * Appends one event after those appended before it; resolves with its entry once its line is in the file,
   * rejects (STORE_ERROR for a full disk) when it is not, and then so do the appends queued behind it.
   */
  append(sessionId: string, event: SessionEvent): Promise<LogEntry> {
    return this.#file(sessionId).append(event);
  }

  /** The seq of the last entry (0 for none), once the appends made before the call were written or failed. */
  async lastSeq(sessionId: string): Promise<number> {
    const file = this.#file(sessionId);
    await file.settled();
    return (await file.index()).length - 1;
  }

  /** Entries with seq > after, at most `limit`. */
  async read(sessionId: string, after = 0, limit = Number.POSITIVE_INFINITY): Promise<LogEntry[]> {
    return (await this.readLines(sessionId, after, limit)).map((line) => JSON.parse(line) as LogEntry);
  }

  /**
   * The same entries as `read`, as their JSON text (one entry each, no newline): for senders that wrap
   * them without parsing every entry again.
   */
  readLines(sessionId: string, after = 0, limit = Number.POSITIVE_INFINITY): Promise<string[]> {
    return this.#file(sessionId).readLines(after, limit);
  }

  /** Resolves once every append made before the call, to any session, was written or failed (shutdown). */
  async flush(): Promise<void> {
    await Promise.all([...this.#files.values()].map((file) => file.settled()));
  }

  /** Deletes the session's log once its queued appends are written; a later append begins a new one. */
  async remove(sessionId: string): Promise<void> {
    const file = this.#files.get(sessionId);
    this.#files.delete(sessionId);
    const removal = (file?.settled() ?? Promise.resolve()).then(() =>
      rm(this.#pathOf(sessionId), { force: true }),
    );
    const gone = removal.catch(() => {});
    this.#removals.set(sessionId, gone);
    try {
      await removal;
    } finally {
      if (this.#removals.get(sessionId) === gone) this.#removals.delete(sessionId);
    }
  }

  async exists(sessionId: string): Promise<boolean> {
    return access(this.#pathOf(sessionId)).then(
      () => true,
      () => false,
    );
  }

  #file(sessionId: string): LogFile {
    let file = this.#files.get(sessionId);
    if (!file) {
      file = new LogFile(this.#pathOf(sessionId), sessionId, this.#removals.get(sessionId));
      this.#files.set(sessionId, file);
    }
    return file;
  }
}
