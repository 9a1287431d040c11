// Keel's programs run their TypeScript sources on Node 24's type stripping. Plain JavaScript, so that an
// older Node (a system Node 20, say) can load it: it then re-runs the program on the Node 24 the
// repository pins in node_modules. Used by the `keel` and `keel-web` bin shims.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * True when this Node can run the program itself. Otherwise starts the program at `programUrl` again on
 * the pinned Node, forwarding signals and its exit code, and returns false.
 */
export function onPinnedNode(programUrl, name) {
  if (Number(process.versions.node.split('.')[0]) >= 24) return true;
  const program = fileURLToPath(programUrl);
  const pinned = findPinnedNode(dirname(program));
  if (!pinned) {
    console.error(
      `${name} needs Node 24 or newer (this is ${process.version}): run npm install in the Keel repository.`,
    );
    process.exit(1);
  }
  const child = spawn(pinned, [program, ...process.argv.slice(2)], { stdio: 'inherit' });
  // Pass signals on, so `kill <pid>` or a supervisor's SIGTERM reaches the program itself (it cancels a
  // run or stops cleanly) instead of killing only this shim and leaving the program running.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 1)));
  return false;
}

function findPinnedNode(start) {
  for (let dir = start; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', 'node', 'bin', 'node');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}
