import type { UserInput } from '../contract.ts';
import { type SqliteContext, stamp } from './context.ts';
import { getRun, notWhileEnded } from './run-queries.ts';

// Messages users send to a running run, held until a checkpoint consumes them.

export function addUserInput(ctx: SqliteContext, runId: string, content: string): UserInput {
  const { now, id } = stamp(ctx, 'inp');
  const row = ctx.sql.insertInput.get({ id, run_id: runId, content, now }) as UserInput | undefined;
  if (row) return row;
  throw notWhileEnded(ctx, runId, 'user input');
}

export function pendingUserInputs(ctx: SqliteContext, runId: string): UserInput[] {
  const rows = ctx.sql.pendingInputs.all({ run_id: runId }) as unknown as UserInput[];
  if (rows.length === 0) getRun(ctx, runId);
  return rows;
}

export function consumeUserInputs(ctx: SqliteContext, runId: string, ids: readonly string[]): void {
  if (ids.length === 0) return;
  ctx.sql.consumeInputs.run({ run_id: runId, ids: JSON.stringify(ids), now: ctx.now().toISOString() });
}
