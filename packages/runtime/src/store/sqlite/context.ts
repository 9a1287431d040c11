import type { DatabaseSync } from 'node:sqlite';
import { InvalidStateError } from '../../errors/index.ts';
import type { Run, RunStatus } from '../contract.ts';
import { newId } from '../ids.ts';
import type { Statements } from './statements.ts';

/** What the SQLite store's operations share: the connection, its prepared statements and the clock. */
export interface SqliteContext {
  readonly db: DatabaseSync;
  readonly sql: Statements;
  readonly now: () => Date;
}

/** The current time as a timestamp, and a new id of the same millisecond. */
export function stamp(ctx: SqliteContext, prefix: string): { now: string; id: string } {
  const now = ctx.now();
  return { now: now.toISOString(), id: newId(prefix, now.getTime()) };
}

/** Runs `work` holding SQLite's write lock, so its reads and writes form one atomic step across processes. */
export function immediate<T>(ctx: SqliteContext, work: () => T): T {
  ctx.sql.begin.run();
  try {
    const result = work();
    ctx.sql.commit.run();
    return result;
  } catch (error) {
    if (ctx.db.isTransaction) ctx.sql.rollback.run();
    throw error;
  }
}

export function wrongState(run: Run, allowed: readonly RunStatus[]): InvalidStateError {
  return new InvalidStateError(
    `Run '${run.id}' is ${run.status}; this applies only to a run that is ${listOf(allowed)}.`,
    { run_id: run.id, status: run.status, allowed: [...allowed] },
  );
}

/** `a`, `a or b`, `a, b or c`. */
function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? 'in no state';
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}
