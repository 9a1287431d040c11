import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { PinChanges, ProjectConfigPin } from './config-pin.ts';
import { hiddenValue, hideSecrets } from './hide-secrets.ts';
import type { RuntimeConfig } from './schema.ts';
import { hasTrustRulesUnder, type TrustKind, trustRuleOf } from './trust-keys.ts';

/**
 * Whether a project folder's configuration file may apply its security-relevant keys: `true` (every
 * folder), `false` (none: an embedder running untrusted checkouts), or a decision per folder, given what
 * the file asks for now (`asks`: compare its `sha256` with a pin the user approved). Left unset, the
 * global config's approvals decide (`keel trust`: this very file, asking for exactly what was approved).
 */
export type ProjectTrust = boolean | ((projectDir: string, asks: ProjectConfigPin) => boolean);

/** One key of a project file that did not apply. */
export interface IgnoredConfigKey {
  /** The project file. */
  file: string;
  /** Dotted key path as written, e.g. `sandbox.enabled` or `skills.custom_dirs[1]`. */
  key: string;
  /** The value it asked for, secrets masked. */
  value: unknown;
  kind: TrustKind;
  /** What the key could do, from the trust table. */
  why: string;
}

/** A path in one spelling with links followed where it exists, to compare folders. */
export function canonicalPath(path: string): string {
  try {
    return realpathSync(resolve(path));
  } catch {
    return resolve(path);
  }
}

/** Whether `dir` is `folder` or inside it. */
export function isInside(dir: string, folder: string): boolean {
  const rel = relative(folder, dir);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** Whether `dir` is one of the absolute `folders` or inside one (a folder trusts its subfolders). */
export function isTrustedFolder(dir: string, folders: readonly string[] | undefined): boolean {
  const canonical = canonicalPath(dir);
  return (folders ?? []).some((folder) => isAbsolute(folder) && isInside(canonical, canonicalPath(folder)));
}

/**
 * The part of a project file that applies in `projectDir`, and what was left out. `trusted` is asked only
 * when a key needs it. Untrusted, only keys the trust table calls harmless apply (and skill directories
 * inside the project); trusted, everything but `trusted_folders` does. `asked` (filled only untrusted)
 * holds each left-out key that trust would apply, with its value unmasked: what a trust decision pins.
 */
export function filterProjectConfig(
  config: RuntimeConfig,
  context: { file: string; projectDir: string; trusted: () => boolean },
): { config: RuntimeConfig; ignored: IgnoredConfigKey[]; asked: Array<[string, unknown]> } {
  const ignored: IgnoredConfigKey[] = [];
  const asked: Array<[string, unknown]> = [];
  let trust: boolean | undefined;
  const trusted = () => {
    trust ??= context.trusted();
    return trust;
  };
  const ignore = (key: string, value: unknown, kind: TrustKind, why: string) => {
    for (const [leaf, leafValue] of leaves(key, value)) {
      ignored.push({ file: context.file, key: leaf, value: masked(leaf, leafValue), kind, why });
      if (kind !== 'trust-list') asked.push([leaf, leafValue]);
    }
  };
  const walk = (object: Record<string, unknown>, prefix: string): Record<string, unknown> => {
    const kept: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(object)) {
      const key = prefix ? `${prefix}.${name}` : name;
      const rule = trustRuleOf(key);
      if (rule?.applies === 'always') kept[name] = value;
      else if (rule?.applies === 'never') ignore(key, value, rule.kind, rule.why);
      else if (rule?.applies === 'trusted') {
        if (trusted()) kept[name] = value;
        else ignore(key, value, rule.kind, rule.why);
      } else if (rule?.applies === 'inside-project' && Array.isArray(value) && !trusted()) {
        const inside = canonicalPath(context.projectDir);
        kept[name] = value.filter((entry, index) => {
          if (
            typeof entry === 'string' &&
            !entry.startsWith('~') &&
            isInside(canonicalPath(resolve(inside, entry)), inside)
          )
            return true;
          ignore(`${key}[${index}]`, entry, rule.kind, rule.why);
          return false;
        });
      } else if (rule) kept[name] = value;
      else if (isPlainObject(value) && hasTrustRulesUnder(key)) {
        const child = walk(value, key);
        if (Object.keys(child).length > 0) kept[name] = child;
      } else if (trusted()) kept[name] = value;
      else ignore(key, value, 'unknown', 'not a key known to be harmless');
    }
    return kept;
  };
  return { config: walk(config, '') as RuntimeConfig, ignored, asked };
}

/**
 * The ignored keys with what changed since the user approved the file said first in `why`, which every
 * surface shows (the `keel` prompt, `keel config show`, keel-web's `/config/status`, the workbench).
 */
export function markChanges(ignored: readonly IgnoredConfigKey[], changes: PinChanges): IgnoredConfigKey[] {
  return ignored.map((entry) => {
    if (changes.changed.includes(entry.key))
      return { ...entry, why: `changed since you trusted it; ${entry.why}` };
    if (changes.added.includes(entry.key)) return { ...entry, why: `new since you trusted it; ${entry.why}` };
    return entry;
  });
}

/** The value with credentials hidden, judged also by its own key's name (`…token`, `headers.Authorization`). */
function masked(key: string, value: unknown): unknown {
  const name = key.slice(key.lastIndexOf('.') + 1);
  return (hideSecrets({ [name]: value }) as Record<string, unknown>)[name] ?? hiddenValue;
}

/** `[key, value]` of every non-object value under `key` (arrays are values), or the key itself. */
function leaves(key: string, value: unknown): Array<[string, unknown]> {
  if (!isPlainObject(value) || Object.keys(value).length === 0) return [[key, value]];
  return Object.entries(value).flatMap(([name, child]) => leaves(`${key}.${name}`, child));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
