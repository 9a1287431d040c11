/** Parses a JSON column, tolerating NULL. */
export function fromJson<T>(text: unknown, fallback: T): T {
  if (typeof text !== 'string') return fallback;
  return JSON.parse(text) as T;
}

export function nowIso(): string {
  return new Date().toISOString();
}
