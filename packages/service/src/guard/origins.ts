/** `scheme://host[:port]` of an origin, or undefined for `null` and anything that is not an http(s) origin. */
export function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Which browser origins may send a state-changing request or open a WebSocket: the service's own (the page
 * it served, so its `Origin` names the very `Host` it asked) and the ones the user allowed (CORS list).
 */
export class OriginAllowList {
  readonly #listed: Set<string>;

  constructor(listed: readonly string[] = []) {
    this.#listed = new Set(listed.map((entry) => originOf(entry.trim())).filter((o) => o !== undefined));
  }

  allows(origin: string, host: string | undefined): boolean {
    const normalised = originOf(origin);
    if (normalised === undefined) return false;
    if (this.#listed.has(normalised)) return true;
    return this.isOwn(origin, host);
  }

  /** Whether `origin` is the service's own: the page it served names the very `Host` it was asked as. */
  isOwn(origin: string, host: string | undefined): boolean {
    const normalised = originOf(origin);
    if (normalised === undefined || host === undefined) return false;
    return new URL(normalised).host === hostAuthority(host);
  }
}

/** A `Host` header as URL normalises it (`LOCALHOST:80` → `localhost`), to compare with an origin's host. */
function hostAuthority(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).host;
  } catch {
    return undefined;
  }
}
