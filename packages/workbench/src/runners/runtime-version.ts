import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

let cached: Promise<string | undefined> | undefined;

/** The version of the installed @keel/runtime, from its package.json (undefined if it cannot be read). */
export function runtimeVersion(): Promise<string | undefined> {
  cached ??= findVersion().catch(() => undefined);
  return cached;
}

async function findVersion(): Promise<string | undefined> {
  // The package exports no package.json, so walk up from its entry point.
  let dir = dirname(createRequire(import.meta.url).resolve('@keel/runtime'));
  for (;;) {
    const text = await readFile(join(dir, 'package.json'), 'utf8').catch(() => undefined);
    if (text !== undefined) {
      const manifest = JSON.parse(text) as { name?: string; version?: string };
      if (manifest.name === '@keel/runtime') return manifest.version;
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
