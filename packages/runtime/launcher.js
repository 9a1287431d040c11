// Starts Keel's programs (`keel`, `keel-web`, `keel-workbench`). Plain JavaScript that any Node can load,
// so that an older Node gets a clear message instead of a syntax error, and inside the Keel repository
// (where the system Node may be older) the program runs again on the Node 24 the repository pins.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import module from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The oldest Node the built programs run on: `node:sqlite` without a flag came in 22.13. */
const minimum = [22, 13];

/**
 * True when this Node can run the program itself (and then turns on Node's module compile cache, which
 * roughly halves the start-up of every later run). Otherwise starts the program at `programUrl` again on
 * the Node pinned in a surrounding node_modules, forwarding signals and its exit code, and returns false;
 * with no such Node it explains what is needed and exits.
 */
export function onPinnedNode(programUrl, name) {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major > minimum[0] || (major === minimum[0] && minor >= minimum[1])) {
    module.enableCompileCache?.();
    quietSqliteWarning();
    return true;
  }
  const program = fileURLToPath(programUrl);
  const pinned = findPinnedNode(dirname(program));
  if (!pinned) {
    console.error(`${name} needs Node ${minimum.join('.')} or newer (this is ${process.version}).`);
    process.exit(1);
  }
  const child = spawn(pinned, [program, ...process.argv.slice(2)], { stdio: 'inherit' });
  // Pass signals on, so `kill <pid>` or a supervisor's SIGTERM reaches the program itself (it cancels a
  // run or stops cleanly) instead of killing only this shim and leaving the program running.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 1)));
  return false;
}

/**
 * Node 22 warns that `node:sqlite` is experimental on every start of every program: noise to a user who
 * did not choose the store, and the API Keel uses is the one Node 24 keeps. Every other warning is shown.
 */
function quietSqliteWarning() {
  const emit = process.emitWarning;
  process.emitWarning = function emitWarning(warning, ...rest) {
    const type = typeof rest[0] === 'string' ? rest[0] : rest[0]?.type;
    const text = typeof warning === 'string' ? warning : warning?.message;
    if (type === 'ExperimentalWarning' && /SQLite/i.test(String(text))) return;
    return emit.call(process, warning, ...rest);
  };
}

function findPinnedNode(start) {
  for (let dir = start; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', 'node', 'bin', 'node');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}
