import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ConfigError } from '../errors/index.ts';
import { writeFileAtomic } from '../files/index.ts';
import { configCache } from './config-cache.ts';
import { whereJsonBroke } from './files.ts';
import { configSchema } from './schema.ts';

export type ConfigObject = Record<string, unknown>;

/**
 * One configuration file that the server rewrites. Updates are serialised (no lost update between two
 * requests of this process), keep every key they do not change, and replace the file atomically:
 * a reader, `keel` or a crash never sees half a file.
 */
export class ConfigFile {
  readonly path: string;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(path: string) {
    this.path = path;
  }

  /** Applies `change` to the file's current content (`{}` when there is no file) and writes the result. */
  update(change: (current: ConfigObject) => ConfigObject): Promise<void> {
    const next = this.#queue.then(async () => {
      const updated = change(await this.#read());
      const parsed = configSchema.safeParse(updated);
      if (!parsed.success) {
        const problems = parsed.error.issues.map(
          (issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`,
        );
        throw new ConfigError(`Configuration file ${this.path} would be invalid: ${problems.join('; ')}`, {
          path: this.path,
          problems,
        });
      }
      await this.#write(`${JSON.stringify(updated, null, 2)}\n`);
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #read(): Promise<ConfigObject> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new ConfigError(`Cannot read configuration file ${this.path}: ${(error as Error).message}`, {
        path: this.path,
      });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new ConfigError(`Configuration file ${this.path} is not valid JSON${whereJsonBroke(error)}.`, {
        path: this.path,
      });
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      throw new ConfigError(`Configuration file ${this.path} must hold a JSON object.`, { path: this.path });
    }
    return json as ConfigObject;
  }

  /** Temp file in the same directory, flushed to disk, then renamed over the old file. */
  async #write(text: string): Promise<void> {
    // Keep the file's permissions; a new one is private to the user, as it may name servers and paths.
    const mode = ((await stat(this.path).catch(() => null))?.mode ?? 0o600) & 0o777;
    await writeFileAtomic(this.path, text, { mode, sync: true });
    configCache.invalidate(this.path);
  }
}

const openFiles = new Map<string, ConfigFile>();

/**
 * The one ConfigFile of `path` in this process: writers that reach the same file through different
 * routes (`PUT /config`, enabling a skill) queue behind each other instead of losing an update.
 */
export function configFileAt(path: string): ConfigFile {
  const key = resolve(path);
  let file = openFiles.get(key);
  if (file === undefined) {
    file = new ConfigFile(key);
    openFiles.set(key, file);
  }
  return file;
}
