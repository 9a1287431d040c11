// The workbench's own API key (WORKBENCH_AUTH_API_KEY on the service), when it has one: kept in this
// browser's localStorage, sent as `Authorization: Bearer` and as the WebSocket's `?token=`.

interface KeyStorage {
  getItem(name: string): string | null;
  setItem(name: string, value: string): void;
  removeItem(name: string): void;
}

const storageName = 'keel-workbench-api-key';
// Typed by hand: this file is also type-checked by the repository's Node-only configuration.
const storage = (globalThis as unknown as { localStorage?: KeyStorage }).localStorage;
const listeners = new Set<() => void>();

export function apiKey(): string | null {
  try {
    return storage?.getItem(storageName) ?? null;
  } catch {
    return null;
  }
}

export function setApiKey(key: string | null): void {
  try {
    if (key) storage?.setItem(storageName, key);
    else storage?.removeItem(storageName);
  } catch {
    // Storage refused (private mode): the key lasts until the page reloads.
  }
}

/** Someone answered 401: the key prompt shows. Answers the function that stops listening. */
export function onUnauthorized(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function reportUnauthorized(): void {
  for (const listener of listeners) listener();
}
