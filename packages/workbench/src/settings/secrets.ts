import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface Secrets {
  api_key?: string;
  github_token?: string;
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
      if (typeof parsed.github_token === 'string') secrets.github_token = parsed.github_token;
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
