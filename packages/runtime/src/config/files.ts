import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../errors/index.ts';
import { configCache } from './config-cache.ts';
import { configSchema, type RuntimeConfig } from './schema.ts';

/** Path of the global configuration file in the user's runtime directory. */
export function globalConfigPath(runtimeDir: string): string {
  return join(runtimeDir, 'config.json');
}

/** Path of a project's configuration file. */
export function projectConfigPath(workdir: string): string {
  return join(workdir, '.runtime', 'config.json');
}

/** Reads one config file; a missing file is an empty config, a broken one a ConfigError naming it. */
export function readConfigFile(path: string): RuntimeConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(`Cannot read configuration file ${path}: ${(error as Error).message}`, { path });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`Configuration file ${path} is not valid JSON: ${(error as Error).message}`, {
      path,
    });
  }
  const parsed = configSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
    throw new ConfigError(`Configuration file ${path} is invalid: ${problems.join('; ')}`, {
      path,
      problems,
    });
  }
  return parsed.data;
}

/** The project file over the global one, merged key by key one level deep. */
export function loadConfig(runtimeDir: string, workdir: string): RuntimeConfig {
  return mergeConfig(
    configCache.get(globalConfigPath(runtimeDir), readConfigFile),
    configCache.get(projectConfigPath(workdir), readConfigFile),
  );
}

export function mergeConfig(base: RuntimeConfig, over: RuntimeConfig): RuntimeConfig {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = merged[key];
    merged[key] = isPlainObject(current) && isPlainObject(value) ? { ...current, ...value } : value;
  }
  return merged as RuntimeConfig;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
