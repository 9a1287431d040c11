import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The page's storage (its key, its notification choice) belongs to its origin, so the shell asks for the
// port it used last: the same origin keeps it.

const file = (dir: string) => join(dir, 'state.json');

export function rememberedPort(dir: string): number | undefined {
  try {
    const { port } = JSON.parse(readFileSync(file(dir), 'utf8')) as { port?: unknown };
    return typeof port === 'number' && Number.isInteger(port) && port > 0 && port < 65536 ? port : undefined;
  } catch {
    return undefined;
  }
}

export function rememberPort(dir: string, url: string): void {
  const port = Number(new URL(url).port);
  if (port > 0) writeFileSync(file(dir), `${JSON.stringify({ port })}\n`, { mode: 0o600 });
}
