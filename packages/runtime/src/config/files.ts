import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../errors/index.ts';
import { configCache } from './config-cache.ts';
import {
  canonicalPath,
  filterProjectConfig,
  type IgnoredConfigKey,
  isTrustedFolder,
  type ProjectTrust,
} from './project-trust.ts';
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

/** The effective configuration of a workdir, and what its project file asked for that did not apply. */
export interface ConfigReport {
  config: RuntimeConfig;
  /** The project file (it may not exist). */
  projectFile: string;
  /** The project folder (the workdir), as compared with the trust list. */
  projectDir: string;
  /** Whether the folder is trusted: its project file's security-relevant keys apply. */
  trusted: boolean;
  /** Keys of the project file that did not apply, and why (empty when it has none). */
  ignored: IgnoredConfigKey[];
}

/**
 * The project file over the global one, merged key by key one level deep. The project file's
 * security-relevant keys apply only in a trusted folder (`trust`; default the global `trusted_folders`).
 */
export function loadConfig(runtimeDir: string, workdir: string, trust?: ProjectTrust): RuntimeConfig {
  // Read on every run and tool call: the trust decision is made only when a key needs it.
  return loadConfigWith(runtimeDir, workdir, trust).config;
}

/** loadConfig with the report of what the project file asked for that did not apply. */
export function loadConfigReport(runtimeDir: string, workdir: string, trust?: ProjectTrust): ConfigReport {
  const { trusted, ...report } = loadConfigWith(runtimeDir, workdir, trust);
  return { ...report, trusted: trusted() };
}

function loadConfigWith(runtimeDir: string, workdir: string, trust: ProjectTrust | undefined) {
  const globalFile = globalConfigPath(runtimeDir);
  const projectFile = projectConfigPath(workdir);
  const globalConfig = configCache.get(globalFile, readConfigFile);
  const projectDir = resolve(workdir);
  // Where the workdir's project file is the global file itself (workdir = the home above RUNTIME_HOME).
  const ownFile = canonicalPath(projectFile) === canonicalPath(globalFile);
  let decision: boolean | undefined;
  const trusted = () => {
    decision ??= ownFile || isProjectTrusted(projectDir, globalConfig, trust);
    return decision;
  };
  const project = ownFile
    ? { config: {}, ignored: [] }
    : filterProjectConfig(configCache.get(projectFile, readConfigFile), {
        file: projectFile,
        projectDir,
        trusted,
      });
  return {
    config: mergeConfig(globalConfig, project.config),
    projectFile,
    projectDir,
    trusted,
    ignored: project.ignored,
  };
}

/** The embedder's decision if it made one, else the global config's trust list. */
function isProjectTrusted(
  projectDir: string,
  globalConfig: RuntimeConfig,
  trust: ProjectTrust | undefined,
): boolean {
  if (typeof trust === 'boolean') return trust;
  if (typeof trust === 'function') return trust(projectDir);
  return isTrustedFolder(projectDir, globalConfig.trusted_folders);
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
