import { fromJson, nowIso } from '../database.ts';
import type { StoredSettings } from '../records/settings.ts';
import type { Database } from './database.ts';

// The settings' one row (id 1), its fields as JSON.

export function readSettings(db: Database): Partial<StoredSettings> {
  const row = db.prepare('SELECT data FROM settings WHERE id = 1').get() as { data: string } | undefined;
  return fromJson<Partial<StoredSettings>>(row?.data, {});
}

export function writeSettings(db: Database, settings: StoredSettings): void {
  db.prepare(
    'INSERT INTO settings (id, data, updated_at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at',
  ).run(JSON.stringify(settings), nowIso());
}
