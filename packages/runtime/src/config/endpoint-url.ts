/**
 * An endpoint URL in one spelling, to tell whether two settings name the same endpoint (a key is bound to
 * the one it was configured for): scheme and host lower case, default port and trailing slashes gone.
 * Undefined for an empty value.
 */
export function normaliseUrl(url: string | null | undefined): string | undefined {
  const trimmed = url?.trim();
  if (!trimmed) return undefined;
  try {
    const parsed = new URL(trimmed);
    const auth = parsed.username || parsed.password ? `${parsed.username}:${parsed.password}@` : '';
    return `${parsed.protocol}//${auth}${parsed.host}${parsed.pathname.replace(/\/+$/, '')}${parsed.search}`;
  } catch {
    return trimmed.replace(/\/+$/, '');
  }
}

/** Whether two endpoint URLs are the same endpoint (both empty counts as the same). */
export function sameEndpoint(a: string | null | undefined, b: string | null | undefined): boolean {
  return normaliseUrl(a) === normaliseUrl(b);
}
