// Prints what a browser downloads before an app shows anything: the scripts and module preloads that its
// built HTML page names (routes, the diff viewer and the Markdown renderer load later), gzipped. The
// argument is the page under dist/: `index.html` (the workbench, the default) or `console/index.html`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = join(import.meta.dirname, '..', 'dist');
const page = process.argv[2] ?? 'index.html';
const html = readFileSync(join(dist, page), 'utf8');
const files = [
  ...html.matchAll(/<script[^>]+src="\/([^"]+\.js)"/g),
  ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/([^"]+\.js)"/g),
].map((match) => match[1] as string);
let raw = 0;
let gzipped = 0;
for (const file of new Set(files)) {
  const bytes = readFileSync(join(dist, file));
  raw += bytes.length;
  gzipped += gzipSync(bytes, { level: 9 }).length;
}
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const app = page === 'index.html' ? 'workbench' : page.split('/')[0];
console.log(`first-load JS (${app}): ${files.length} file(s), ${kb(raw)} (gzip ${kb(gzipped)})`);
