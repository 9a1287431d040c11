import type { StoredSettings } from '../../settings/index.ts';

export type { StoredSettings };

/** The settings' one row (their plain fields; secrets are in their own file). */
export interface SettingsRecords {
  /** The stored fields, or an empty object when the settings were never saved. */
  read(): Promise<Partial<StoredSettings>>;
  /**
   * Replaces the row. `alongside` runs inside the same transaction, after the write: when it throws, or
   * the commit fails, the row is not changed and the error is thrown (the secrets file is written there).
   */
  write(settings: StoredSettings, alongside?: () => void): Promise<void>;
}
