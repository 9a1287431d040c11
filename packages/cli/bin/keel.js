#!/usr/bin/env node
// Keel runs its TypeScript sources on Node 24's type stripping. Started by an older Node (a system
// Node 20, say), this shim re-runs itself on the Node 24 the repository pins in node_modules.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const major = Number(process.versions.node.split('.')[0]);

if (major >= 24) {
  // A reader that stops early (`keel runs list --json | head -1`) closes the pipe: that is not an error.
  process.stdout.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  const { main } = await import('../src/main.ts');
  process.exitCode = await main(process.argv);
} else {
  const pinned = findPinnedNode(dirname(self));
  if (!pinned) {
    console.error(
      `keel needs Node 24 or newer (this is ${process.version}): run npm install in the Keel repository.`,
    );
    process.exit(1);
  }
  const child = spawn(pinned, [self, ...process.argv.slice(2)], { stdio: 'inherit' });
  // Pass signals on, so `kill <pid>` or a supervisor's SIGTERM reaches keel itself (it cancels a run or
  // stops a worker cleanly) instead of killing only this shim and leaving keel running.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 1)));
}

function findPinnedNode(start) {
  for (let dir = start; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', 'node', 'bin', 'node');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}
