import type { DatabaseSync } from 'node:sqlite';
import type { ErrorObject } from '../errors/index.ts';
import { InvalidStateError, RunNotFoundError } from '../errors/index.ts';
import type { RuntimeEvent } from '../events/index.ts';
import { newId } from './ids.ts';

/** Run states so far; `queued`, `waiting` and `paused` arrive with the scheduler. */
export type RunStatus = 'running' | 'succeeded' | 'failed' | 'cancelled';

export const finishedStatuses: readonly RunStatus[] = ['succeeded', 'failed', 'cancelled'];

export interface Run {
  id: string;
  status: RunStatus;
  session_id: string | null;
  workdir: string;
  prompt: string;
  error: ErrorObject | null;
  /** Sequence number of the run's last event: the cursor a caught-up reader holds. */
  last_seq: number;
  created_at: string;
  updated_at: string;
  ended_at: string | null;
  /** Last sign of life from the process running it; a stale one means the run was orphaned. */
  heartbeat_at: string | null;
}

/** One stored event with its place in the run. */
export interface RunEventRecord {
  id: string;
  run_id: string;
  /** Gapless, from 1: resume after a disconnect with `events(runId, { after: seq })`. */
  seq: number;
  event: RuntimeEvent;
  created_at: string;
}

export type ControlKind = 'cancel';

interface RunRow extends Omit<Run, 'error'> {
  error: string | null;
}

/** Runs, their events and control requests in the single-machine store. */
export class RunStore {
  readonly #db: DatabaseSync;
  readonly #now: () => Date;

  constructor(db: DatabaseSync, now: () => Date = () => new Date()) {
    this.#db = db;
    this.#now = now;
  }

  create(input: { session_id: string | null; workdir: string; prompt: string }): Run {
    const now = this.#now().toISOString();
    const id = newId('run');
    this.#db
      .prepare(
        `INSERT INTO runs (id, status, session_id, workdir, prompt, created_at, updated_at, heartbeat_at)
         VALUES (?, 'running', ?, ?, ?, ?, ?, ?)`,
      )
      .run(id, input.session_id, input.workdir, input.prompt, now, now, now);
    return this.get(id);
  }

  /** Throws RunNotFoundError for an unknown id. */
  get(id: string): Run {
    const row = this.#db.prepare('SELECT * FROM runs WHERE id = ?').get(id) as RunRow | undefined;
    if (!row) throw new RunNotFoundError(id);
    return toRun(row);
  }

  /** Newest first. */
  list(options: { limit?: number; status?: RunStatus } = {}): Run[] {
    const limit = options.limit ?? 20;
    const rows = (options.status
      ? this.#db
          .prepare('SELECT * FROM runs WHERE status = ? ORDER BY id DESC LIMIT ?')
          .all(options.status, limit)
      : this.#db.prepare('SELECT * FROM runs ORDER BY id DESC LIMIT ?').all(limit)) as unknown as RunRow[];
    return rows.map(toRun);
  }

  /** Stores an event under the run's next sequence number, atomically; returns that number. */
  append(runId: string, event: RuntimeEvent): number {
    const now = this.#now().toISOString();
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const row = this.#db
        .prepare('UPDATE runs SET last_seq = last_seq + 1, updated_at = ? WHERE id = ? RETURNING last_seq')
        .get(now, runId) as { last_seq: number } | undefined;
      if (!row) throw new RunNotFoundError(runId);
      this.#db
        .prepare('INSERT INTO run_events (id, run_id, seq, type, data, created_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(newId('evt'), runId, row.last_seq, event.type, JSON.stringify(event), now);
      this.#db.exec('COMMIT');
      return row.last_seq;
    } catch (error) {
      this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  /** Events after the cursor `after` (default 0: from the start), in order. */
  events(runId: string, options: { after?: number; limit?: number } = {}): RunEventRecord[] {
    this.get(runId);
    const rows = this.#db
      .prepare(
        'SELECT id, run_id, seq, data, created_at FROM run_events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?',
      )
      .all(runId, options.after ?? 0, options.limit ?? 1000) as {
      id: string;
      run_id: string;
      seq: number;
      data: string;
      created_at: string;
    }[];
    return rows.map((row) => ({
      id: row.id,
      run_id: row.run_id,
      seq: row.seq,
      event: JSON.parse(row.data) as RuntimeEvent,
      created_at: row.created_at,
    }));
  }

  finish(runId: string, status: Exclude<RunStatus, 'running'>, error?: ErrorObject): void {
    const now = this.#now().toISOString();
    this.#db
      .prepare('UPDATE runs SET status = ?, error = ?, ended_at = ?, updated_at = ? WHERE id = ?')
      .run(status, error ? JSON.stringify(error) : null, now, now, runId);
  }

  heartbeat(runId: string): void {
    this.#db.prepare('UPDATE runs SET heartbeat_at = ? WHERE id = ?').run(this.#now().toISOString(), runId);
  }

  /** Records a control request any process may write; the process running the run acts on it. */
  requestControl(runId: string, kind: ControlKind): string {
    const run = this.get(runId);
    if (finishedStatuses.includes(run.status)) {
      throw new InvalidStateError(
        `Run '${runId}' is ${run.status}; ${kind} applies only to a run that has not ended.`,
        {
          run_id: runId,
          status: run.status,
        },
      );
    }
    const id = newId('ctl');
    this.#db
      .prepare('INSERT INTO run_controls (id, run_id, kind, created_at) VALUES (?, ?, ?, ?)')
      .run(id, runId, kind, this.#now().toISOString());
    return id;
  }

  /** Takes the run's unhandled control requests, marking them handled. */
  takeControls(runId: string): ControlKind[] {
    const rows = this.#db
      .prepare(
        `UPDATE run_controls SET handled_at = ? WHERE run_id = ? AND handled_at IS NULL RETURNING kind`,
      )
      .all(this.#now().toISOString(), runId) as { kind: ControlKind }[];
    return rows.map((row) => row.kind);
  }
}

function toRun(row: RunRow): Run {
  return { ...row, error: row.error ? (JSON.parse(row.error) as ErrorObject) : null };
}
