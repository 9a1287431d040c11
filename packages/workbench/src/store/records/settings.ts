import type { StoredSettings } from '../../settings/index.ts';

export type { StoredSettings };

/** The settings' one row (their plain fields; secrets are in their own file). */
export interface SettingsRecords {
  /** The stored fields, or an empty object when the settings were never saved. */
  read(): Promise<Partial<StoredSettings>>;
  /** Replaces the row (the secrets file is the service's, written after it: nothing else in a transaction). */
  write(settings: StoredSettings): Promise<void>;
}
