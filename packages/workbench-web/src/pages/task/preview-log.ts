import type { PreviewOutput } from '@keel/workbench-client';
import type { Preview, PreviewLog } from '../../api/types.ts';

// A preview as the task page shows it: its record and its log, from two sources that may cross (the REST
// answers and the task's WebSocket channel). The log is its end read once (`GET …/log`), then the chunks
// the channel tells after that read's seq. A new start counts its chunks from 1 again: its own log.

/** The characters of a preview's output the page keeps (the service keeps as many). */
const keptChars = 200_000;

export interface LiveLog {
  /** The start it is the output of (the preview's `started_at`). */
  startedAt: string;
  text: string;
  /** The seq of the last chunk in `text`. */
  seq: number;
  /** Older output was dropped to keep the end. */
  truncated: boolean;
  /** Chunks heard while the log is being read, until it answers; null when no read is awaited. */
  early: PreviewOutput[] | null;
}

/** A start heard as it happened: its output is every chunk from the first. */
export function freshLog(startedAt: string): LiveLog {
  return { startedAt, text: '', seq: 0, truncated: false, early: null };
}

/** The log while it is read again: what it shows stays (same start), what comes meanwhile waits. */
export function readingLog(log: LiveLog | undefined, startedAt: string): LiveLog {
  return { ...(log?.startedAt === startedAt ? log : freshLog(startedAt)), early: [] };
}

/** The log as read, with the chunks heard meanwhile that it does not hold yet. */
export function withRead(log: LiveLog, read: PreviewLog): LiveLog {
  const base = { ...log, text: read.log, seq: read.seq, truncated: read.truncated, early: null };
  return appended(base, log.early ?? []);
}

/** The read failed: the chunks heard meanwhile are shown after what was there. */
export function withoutRead(log: LiveLog): LiveLog {
  return appended({ ...log, early: null }, log.early ?? []);
}

/** One chunk from the channel: kept for the read in progress, or appended when the log does not hold it. */
export function withChunk(log: LiveLog, chunk: PreviewOutput): LiveLog {
  if (log.early) return { ...log, early: [...log.early, chunk] };
  return appended(log, [chunk]);
}

function appended(log: LiveLog, chunks: PreviewOutput[]): LiveLog {
  const fresh = chunks.filter((chunk) => chunk.seq > log.seq);
  if (fresh.length === 0) return log;
  const text = log.text + fresh.map((chunk) => chunk.text).join('');
  const seq = Math.max(log.seq, ...fresh.map((chunk) => chunk.seq));
  if (text.length <= keptChars) return { ...log, text, seq };
  return { ...log, text: text.slice(-keptChars), seq, truncated: true };
}

const stateOrder: Record<Preview['state'], number> = { starting: 0, running: 1, exited: 2, stopped: 2 };

/** The later of two records of a repository's preview (an answer and a channel message may cross). */
export function later(current: Preview | undefined, next: Preview): Preview {
  if (!current || next.started_at > current.started_at) return next;
  if (next.started_at < current.started_at) return current;
  return stateOrder[next.state] >= stateOrder[current.state] ? next : current;
}
