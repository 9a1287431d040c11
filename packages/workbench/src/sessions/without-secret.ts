/**
 * The value with every occurrence of `secret` in its strings replaced by `[hidden]`. The session runner
 * applies it once to everything a runner hands back (events and outcome), so no runner has to remember
 * to, and a model key never reaches a session's log, its row or a WebSocket client.
 */
export function withoutSecret<T>(value: T, secret: string | undefined): T {
  // A very short "key" (a local model's placeholder) would only mangle ordinary text.
  if (!secret || secret.length < 6) return value;
  const scrub = (item: unknown): unknown => {
    if (typeof item === 'string') return item.split(secret).join('[hidden]');
    if (Array.isArray(item)) return item.map(scrub);
    if (item && typeof item === 'object') {
      return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, scrub(inner)]));
    }
    return item;
  };
  return scrub(value) as T;
}
