import type { DatabaseSync, StatementSync } from 'node:sqlite';

/**
 * `db.prepare(text)`, with one repair for statements that write and return rows (`RETURNING`). node:sqlite's
 * `get()` steps once and then resets the statement without checking the reset, and outside a transaction
 * that reset is the commit: a commit that fails (SQLITE_FULL on a full disk, an I/O error) is lost and the
 * row comes back as if stored. Such a statement's `get()` runs it to the end with `all()` instead, so a
 * failed commit throws.
 */
export function prepareStatement(db: DatabaseSync, text: string): StatementSync {
  const statement = db.prepare(text);
  if (/\bRETURNING\b/i.test(text)) {
    const all = statement.all.bind(statement) as (...params: unknown[]) => unknown[];
    Object.defineProperty(statement, 'get', { value: (...params: unknown[]) => all(...params)[0] });
  }
  return statement;
}
