import { apiKey } from './api/auth.ts';
import { WorkbenchSocket } from './api/socket.ts';

// Typed by hand: this file is also type-checked by the repository's Node-only configuration.
const where = (globalThis as unknown as { location?: { protocol: string; host: string } }).location;

/** The URL of `WS /api/ws` on the service that served the page, with the API key when there is one. */
function socketUrl(): string {
  const key = apiKey();
  const base = `${where?.protocol === 'https:' ? 'wss' : 'ws'}://${where?.host ?? '127.0.0.1:8000'}/api/ws`;
  return key ? `${base}?token=${encodeURIComponent(key)}` : base;
}

/** The app's one WebSocket (it connects on the first subscription). */
export const socket = new WorkbenchSocket(socketUrl);
