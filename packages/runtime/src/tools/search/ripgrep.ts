import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';

let found: Promise<string | null> | undefined;

/** `rg` when ripgrep runs on this machine (checked once per process), otherwise null. */
export function findRipgrep(): Promise<string | null> {
  found ??= new Promise((resolve) => {
    execFile('rg', ['--version'], { timeout: 5000 }, (error, stdout) => {
      resolve(!error && stdout.startsWith('ripgrep ') ? 'rg' : null);
    });
  });
  return found;
}

/**
 * Asks ripgrep which files under `root` it searched to the end without finding any of `literals` (fixed
 * strings, case-insensitive when `ignoreCase`): absolute paths, or null when it did not run. That is the
 * only thing the caller acts on: it skips exactly these files and reads every other one itself. So what
 * ripgrep leaves out (its own reading of ignore files, links, which it does not follow, files over
 * `maxFileBytes`, files it could not read) costs time, never a match, and its answer need not agree with
 * the walker's rules. Binary files are searched as text and every encoding as raw bytes, so "no literal"
 * means no literal in the bytes the caller would decode; hidden files are searched; ignore files above
 * `root` and global excludes are not read.
 */
export function ripgrepNonMatches(options: {
  rg: string;
  root: string;
  literals: readonly string[];
  ignoreCase: boolean;
  maxFileBytes: number;
  signal: AbortSignal;
}): Promise<Set<string> | null> {
  const args = [
    '--no-config',
    '--files-without-match',
    '--null',
    '--text',
    '--encoding=none',
    '--hidden',
    '--no-require-git',
    '--no-ignore-parent',
    '--no-ignore-dot',
    '--no-ignore-exclude',
    '--no-ignore-global',
    '--no-messages',
    `--max-filesize=${options.maxFileBytes}`,
    '--glob=!.git/',
    '--glob=!node_modules/',
    '--fixed-strings',
    options.ignoreCase ? '--ignore-case' : '--case-sensitive',
    ...options.literals.flatMap((literal) => ['-e', literal]),
    '--',
    '.',
  ];
  // Its answer goes to a temporary file rather than a pipe: it writes once per file named, and a pipe
  // would wake this process for each write.
  const outPath = join(tmpdir(), `keel-rg-${process.pid}-${randomUUID()}`);
  return new Promise((resolve) => {
    let out: number;
    try {
      out = openSync(outPath, 'w', 0o600);
    } catch {
      return resolve(null); // no temporary file: search without ripgrep
    }
    const child = spawn(options.rg, args, {
      cwd: options.root,
      stdio: ['ignore', out, 'ignore'],
      signal: options.signal,
    });
    let finished = false;
    // 'error' (it could not start, or the signal killed it) may come before 'close': settle once.
    const finish = (result: Set<string> | null) => {
      if (finished) return;
      finished = true;
      closeSync(out);
      rmSync(outPath, { force: true });
      resolve(result);
    };
    child.on('error', () => finish(null));
    // 0 or 1, and 2 when some file could not be read: a file is named only once searched to the end.
    child.on('close', (code) => {
      // After 'error' (a missing program still closes, with a negative code) the file is already gone.
      if (finished) return;
      if (code === null || code < 0 || code > 2) return finish(null);
      let answer: string;
      try {
        answer = readFileSync(outPath, 'utf8');
      } catch {
        return finish(null);
      }
      const paths = answer.split('\0');
      paths.pop(); // each path ends with a NUL (a path may hold a newline, never a NUL); a cut-off one is dropped
      // `./a/b` under the root is the walker's `root/a/b`.
      const prefix = options.root.endsWith(sep) ? options.root.slice(0, -1) : options.root;
      finish(new Set(paths.map((path) => prefix + path.slice(1))));
    });
  });
}
