import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Writes a small Node program standing in for an agent's binary: `body` is its JavaScript (ESM, with `fs`,
 * `child_process` and `emit(object)` — one JSON line on stdout — in scope). It answers `--version` with
 * `fake-agent 1.2.3` before the body runs. The shebang names this very Node, whatever PATH says.
 */
export async function writeFakeAgent(dir: string, name: string, body: string): Promise<string> {
  const path = join(dir, name);
  const source = [
    `#!${process.execPath}`,
    "import fs from 'node:fs';",
    "import child_process from 'node:child_process';",
    "const emit = (event) => process.stdout.write(JSON.stringify(event) + '\\n');",
    "if (process.argv.includes('--version')) { console.log('fake-agent 1.2.3'); process.exit(0); }",
    body,
  ].join('\n');
  await writeFile(path, source);
  await chmod(path, 0o755);
  return path;
}
