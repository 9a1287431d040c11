/** What a hidden value reads as. */
export const hiddenValue = '***';

/** Names of keys (and URL query parameters) whose values are credentials, in any case. */
const secretName = /key|token|secret|passw(?:or)?d|authorization|credential/i;

/** Model credentials are left out altogether rather than masked (spec: never returned by `GET /config`). */
const omitted = new Set(['model_api_key']);

/**
 * A copy of a configuration with every credential hidden, at any depth: values of keys named like
 * a key, token, secret or password become `"***"`, `model_api_key` is dropped, and passwords (or
 * secret-named query parameters) inside URL strings, such as a PostgreSQL store URL, are masked.
 */
export function hideSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hideSecrets);
  if (typeof value === 'string') return hideUrlCredentials(value);
  if (typeof value !== 'object' || value === null) return value;
  const visible: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(value)) {
    if (omitted.has(name.toLowerCase())) continue;
    visible[name] = isSecret(name, child) ? hiddenValue : hideSecrets(child);
  }
  return visible;
}

function isSecret(name: string, value: unknown): boolean {
  if (!secretName.test(name)) return false;
  // `max_tokens` and other token counts are limits the user sets and must read back, not credentials.
  return !(typeof value === 'number' && !secretName.test(name.replace(/tokens/gi, '')));
}

function hideUrlCredentials(text: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return text;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  let changed = false;
  if (url.password) {
    url.password = hiddenValue;
    changed = true;
  }
  for (const name of new Set(url.searchParams.keys())) {
    if (!secretName.test(name)) continue;
    url.searchParams.set(name, hiddenValue);
    changed = true;
  }
  // Unchanged URLs are returned as written, not in the URL parser's normal form.
  return changed ? url.toString() : text;
}
