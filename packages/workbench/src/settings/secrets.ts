import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** The secrets a URL change can clear. */
export const secretNames = ['api_key', 'github_token', 'gitlab_token'] as const;
export type SecretName = (typeof secretNames)[number];

export interface Secrets {
  api_key?: string;
  /**
   * The base_url the key was saved with (null: none, the runner's default endpoint); the key goes nowhere
   * else. Absent only in a file written before keys were bound: bound on first read.
   */
  api_key_base_url?: string | null;
  github_token?: string;
  /** The github_api_url the token was saved with, as api_key_base_url. */
  github_token_api_url?: string;
  /** A GitLab token (read_api) to follow merge requests, bound to gitlab_api_url as the others. */
  gitlab_token?: string;
  gitlab_token_api_url?: string;
  /** Secrets removed because their URL changed without them, until they are sent again (or null). */
  cleared?: SecretName[];
}

/**
 * The write-only secrets in `{WORKBENCH_HOME}/secrets.json`, mode 0600: never in the database, never in a
 * response, never in a log. Written to a temp file and renamed so a crash never leaves half a file.
 */
export class SecretsFile {
  readonly #path: string;

  constructor(path: string) {
    this.#path = path;
  }

  read(): Secrets {
    if (!existsSync(this.#path)) return {};
    try {
      const parsed = JSON.parse(readFileSync(this.#path, 'utf8')) as Record<string, unknown>;
      const secrets: Secrets = {};
      if (typeof parsed.api_key === 'string') secrets.api_key = parsed.api_key;
      if (typeof parsed.api_key_base_url === 'string' || parsed.api_key_base_url === null)
        secrets.api_key_base_url = parsed.api_key_base_url;
      for (const name of [
        'github_token',
        'github_token_api_url',
        'gitlab_token',
        'gitlab_token_api_url',
      ] as const) {
        const value = parsed[name];
        if (typeof value === 'string') secrets[name] = value;
      }
      if (Array.isArray(parsed.cleared)) {
        secrets.cleared = secretNames.filter((name) => (parsed.cleared as unknown[]).includes(name));
      }
      return secrets;
    } catch {
      return {};
    }
  }

  write(secrets: Secrets): void {
    mkdirSync(dirname(this.#path), { recursive: true });
    const temp = `${this.#path}.tmp`;
    try {
      writeFileSync(temp, JSON.stringify(secrets), { mode: 0o600 });
      chmodSync(temp, 0o600);
      renameSync(temp, this.#path);
    } catch (error) {
      // A full disk leaves no half-written copy of a secret behind; the old file is untouched.
      rmSync(temp, { force: true });
      throw error;
    }
  }
}
