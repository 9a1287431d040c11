import type { ParsedManifest } from '../types.ts';
import { unique } from './manifest-paths.ts';

/** go.mod: the module path and its direct requirements (`// indirect` ones skipped). */
export function parseGoMod(path: string, text: string): ParsedManifest {
  const name = /^\s*module\s+(\S+)/m.exec(text)?.[1];
  const dependencies: string[] = [];
  let inBlock = false;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (/^require\s*\($/.test(line) || (inBlock && line === ')')) {
      inBlock = !inBlock;
      continue;
    }
    const spec = inBlock ? line : /^require\s+(.+)$/.exec(line)?.[1];
    if (spec && !spec.startsWith('//') && !spec.includes('// indirect')) {
      dependencies.push(spec.split(/\s+/)[0] ?? '');
    }
  }
  return {
    manifest: { path, kind: 'go', ...(name ? { name } : {}), dependencies: unique(dependencies) },
    entries: [],
    frameworks: [],
  };
}
