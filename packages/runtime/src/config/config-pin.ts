import { createHash } from 'node:crypto';

/**
 * What one project file asks for that applies only when trusted: each such key (dotted, as the report
 * names it) with a hash of its value, and one hash over all of them. A trust decision records this pin
 * (docs/decisions/2026-11-28-trust-pinned-to-content.md): the file then applies those keys only while it
 * asks for exactly the same, so a changed value, a new key or a removed one needs approving again. The
 * hashes let the global config name what changed without copying a project's values (tokens, headers).
 */
export interface ProjectConfigPin {
  /** The project file: `<workdir, links followed>/.runtime/config.json`. */
  file: string;
  /** sha-256 (hex) over every key and value below: equal pins mean equal asks. */
  sha256: string;
  /** Each key that needs trust, with the sha-256 (hex) of its value. */
  keys: Record<string, string>;
}

/** How the keys asked for now differ from those approved. */
export interface PinChanges {
  /** Approved keys whose value is different now. */
  changed: string[];
  /** Keys asked for now that were not approved. */
  added: string[];
  /** Approved keys the file no longer asks for. */
  removed: string[];
}

/** The pin of `file` asking for `asked` (each key needing trust with its value as written). */
export function pinOf(
  file: string,
  asked: ReadonlyArray<readonly [key: string, value: unknown]>,
): ProjectConfigPin {
  const keys: Record<string, string> = {};
  for (const [key, value] of [...asked].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    keys[key] = sha256(canonicalJson(value));
  }
  return { file, sha256: sha256(canonicalJson(keys)), keys };
}

/** What differs between an approved pin and the current one (all empty when they are equal). */
export function pinChanges(
  approved: Pick<ProjectConfigPin, 'keys'>,
  current: Pick<ProjectConfigPin, 'keys'>,
): PinChanges {
  const before = approved.keys;
  const now = current.keys;
  return {
    changed: Object.keys(now).filter((key) => key in before && before[key] !== now[key]),
    added: Object.keys(now).filter((key) => !(key in before)),
    removed: Object.keys(before).filter((key) => !(key in now)),
  };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** JSON with object keys sorted, so the same values hash the same however the file orders them. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, child]) => child !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, child]) => `${JSON.stringify(key)}:${canonicalJson(child)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
