import { readFileSync, realpathSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { ConfigError } from '../errors/index.ts';
import { approvalOf, type ConfigApproval, pinnedFileOf } from './approval.ts';
import { configCache } from './config-cache.ts';
import { type ProjectConfigPin, pinOf } from './config-pin.ts';
import {
  canonicalPath,
  filterProjectConfig,
  type IgnoredConfigKey,
  markChanges,
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
    throw new ConfigError(`Configuration file ${path} is not valid JSON${whereJsonBroke(error)}.`, { path });
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

/**
 * Where a JSON parse failed ("at position 12 (line 1 column 13)"), never the parser's quote of the text: a
 * project file may be a link to a secret, and its first characters must not reach an error message.
 */
export function whereJsonBroke(error: unknown): string {
  const where = /at position \d+(?: \(line \d+ column \d+\))?/.exec((error as Error).message ?? '');
  return where ? ` (${where[0]})` : '';
}

/**
 * A project's file, unless it (or its `.runtime` folder) is a link leading out of the project: a
 * repository's `.runtime/config.json -> ~/.ssh/id_rsa` is not read at all.
 */
function readProjectFile(projectDir: string): (path: string) => RuntimeConfig {
  return (path) => {
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      return readConfigFile(path);
    }
    const root = canonicalPath(projectDir);
    if (real !== root && !real.startsWith(root.endsWith(sep) ? root : root + sep)) {
      throw new ConfigError(
        `Configuration file ${path} is a link to a file outside the project (${real}): it is not read. ` +
          'Put the configuration in the project itself.',
        { path, reason: 'link_outside_project' },
      );
    }
    return readConfigFile(path);
  };
}

/** The effective configuration of a workdir, and what its project file asked for that did not apply. */
export interface ConfigReport {
  config: RuntimeConfig;
  /** The project file (it may not exist). */
  projectFile: string;
  /** The project folder (the workdir), as compared with the trust list. */
  projectDir: string;
  /** Whether the project file's security-relevant keys apply. */
  trusted: boolean;
  /**
   * Keys of the project file that did not apply, and why (empty when it has none). A key whose value
   * changed since the user approved the file says so first in `why`.
   */
  ignored: IgnoredConfigKey[];
  /** What the file asks for that needs trust, as `keel trust` records it (pass it on to pin what was shown). */
  pin: ProjectConfigPin;
  /** How the decision was made, and what changed since the file was approved. */
  approval: ConfigApproval;
}

/**
 * The project file over the global one, merged key by key one level deep. The project file's
 * security-relevant keys apply only when trusted (`trust`; default the global config's approvals).
 */
export function loadConfig(runtimeDir: string, workdir: string, trust?: ProjectTrust): RuntimeConfig {
  // Read on every run and tool call: the trust decision is made only when a key needs it.
  return loadConfigWith(runtimeDir, workdir, trust).config;
}

/** loadConfig with the report of what the project file asked for that did not apply. */
export function loadConfigReport(runtimeDir: string, workdir: string, trust?: ProjectTrust): ConfigReport {
  const { decide, config, ...report } = loadConfigWith(runtimeDir, workdir, trust);
  const { trusted, approval } = decide();
  return {
    ...report,
    config,
    trusted,
    approval,
    ignored: trusted ? report.ignored : explained(report.ignored, approval),
  };
}

/** The ignored keys with why they are ignored although the user trusted something once. */
function explained(ignored: IgnoredConfigKey[], approval: ConfigApproval): IgnoredConfigKey[] {
  if (approval.status !== 'old-folder-entry') return markChanges(ignored, approval.changes);
  return ignored.map((entry) =>
    entry.kind === 'trust-list'
      ? entry
      : {
          ...entry,
          why: `a trusted_folders entry no longer trusts a file unseen: keel trust it again; ${entry.why}`,
        },
  );
}

function loadConfigWith(runtimeDir: string, workdir: string, trust: ProjectTrust | undefined) {
  const globalFile = globalConfigPath(runtimeDir);
  const projectFile = projectConfigPath(workdir);
  const globalConfig = configCache.get(globalFile, readConfigFile);
  const projectDir = resolve(workdir);
  // Where the workdir's project file is the global file itself (workdir = the home above RUNTIME_HOME).
  const ownFile = canonicalPath(projectFile) === canonicalPath(globalFile);
  const raw = ownFile ? {} : configCache.get(projectFile, readProjectFile(projectDir));
  const context = { file: projectFile, projectDir };
  // What applies untrusted, and what trust would add: the pin a decision compares with what was approved.
  const untrusted = filterProjectConfig(raw, { ...context, trusted: () => false });
  const pin = pinOf(pinnedFileOf(projectDir), untrusted.asked);
  let decision: { trusted: boolean; approval: ConfigApproval } | undefined;
  const decide = () => {
    decision ??= ownFile
      ? { trusted: true, approval: { status: 'own-file', changes: noChanges } }
      : isProjectTrusted(projectDir, pin, globalConfig, trust);
    return decision;
  };
  // The decision is asked for only when the file asks for something that needs it.
  const project =
    untrusted.asked.length > 0 && decide().trusted
      ? filterProjectConfig(raw, { ...context, trusted: () => true })
      : untrusted;
  return {
    config: mergeConfig(globalConfig, project.config),
    projectFile,
    projectDir,
    pin,
    decide,
    ignored: project.ignored,
  };
}

const noChanges = { changed: [], added: [], removed: [] };

/** The embedder's decision if it made one, else the global config's approvals. */
function isProjectTrusted(
  projectDir: string,
  pin: ProjectConfigPin,
  globalConfig: RuntimeConfig,
  trust: ProjectTrust | undefined,
): { trusted: boolean; approval: ConfigApproval } {
  if (trust !== undefined) {
    const trusted = typeof trust === 'boolean' ? trust : trust(projectDir, pin);
    return { trusted, approval: { status: 'embedder', changes: noChanges } };
  }
  const approval = approvalOf(globalConfig, pin, projectDir);
  return { trusted: approval.status === 'approved', approval };
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
