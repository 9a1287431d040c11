// The service's API key, when it has one (WORKBENCH_AUTH_API_KEY on the workbench, RUNTIME_AUTH_API_KEY on
// keel-web): kept in this browser's localStorage, sent as `Authorization: Bearer` and as a WebSocket's
// `?token=`. Each app keeps its key under its own name: both services default to port 8000, and one origin's
// key must not be offered to the other service.

interface KeyStorage {
  getItem(name: string): string | null;
  setItem(name: string, value: string): void;
  removeItem(name: string): void;
}

let storageName = 'keel-workbench-api-key';
// Typed by hand: this file is also type-checked by the repository's Node-only configuration.
const storage = (globalThis as unknown as { localStorage?: KeyStorage }).localStorage;
const listeners = new Set<() => void>();

/** Which localStorage entry holds the key; an app sets it once, before its first request. */
export function setKeyStorageName(name: string): void {
  storageName = name;
}

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
