import type { StoredSettings } from '@keel/workbench';
import type { Sql } from './database.ts';
import { jsonParam, now } from './database.ts';

// The settings' one row (id 1), their fields as JSON (kept as written, key order too).

export async function readSettings(db: Sql): Promise<Partial<StoredSettings>> {
  const row = await db.row<{ data: Partial<StoredSettings> }>(
    `SELECT data FROM ${db.t.settings} WHERE id = 1`,
  );
  return row?.data ?? {};
}

/** Replaces the row in one statement (an upsert: two first writes at once do not collide). */
export async function writeSettings(db: Sql, settings: StoredSettings): Promise<void> {
  await db.rows(
    `INSERT INTO ${db.t.settings} (id, data, updated_at) VALUES (1, $1, ${now})
     ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data, updated_at = EXCLUDED.updated_at`,
    [jsonParam(settings)],
  );
}
