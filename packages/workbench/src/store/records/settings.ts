import type {
  gitIdentitySchema,
  mcpServerSchema,
  prdLinksSchema,
  runnerConfigSchema,
} from '@keel/protocol/workbench';
import type { z } from 'zod';

/** What the database holds: everything but the secrets. */
export interface StoredSettings {
  model: string | null;
  base_url: string | null;
  default_runner: string;
  runner_configs: z.infer<typeof runnerConfigSchema>[];
  mcp_servers: z.infer<typeof mcpServerSchema>[];
  github_api_url: string;
  gitlab_api_url: string;
  // The same shape as settings/schema.ts's PrdLinksSettings (which only adds a check of each host).
  prd_links: z.infer<typeof prdLinksSchema>;
  git_identity: z.infer<typeof gitIdentitySchema>;
}

/** The settings' one row (their plain fields; secrets are in their own file). */
export interface SettingsRecords {
  /** The stored fields, or an empty object when the settings were never saved. */
  read(): Promise<Partial<StoredSettings>>;
  /** Replaces the row (the secrets file is the service's, written after it: nothing else in a transaction). */
  write(settings: StoredSettings): Promise<void>;
}
