import { readFile } from 'node:fs/promises';
import { isAbsolute, join, matchesGlob, relative, sep } from 'node:path';

/** Directory names never searched, wherever they are. */
export const alwaysIgnored: readonly string[] = ['.git', 'node_modules'];

interface Rule {
  glob: string;
  /** `dir/` entries match directories only. */
  dirOnly: boolean;
  /** Rules with a `/` before the end match the path from the workdir; others match a name at any depth. */
  anchored: boolean;
}

/**
 * A deliberately simple reading of the workdir's root `.gitignore`, used by the search tools:
 * - blank lines and `#` comments are skipped; `!` negations are not supported and are skipped;
 * - `name` or `*.log` (no slash) matches a file or directory name at any depth;
 * - `name/` matches only directories; an ignored directory is not entered;
 * - `/build` or `docs/*.md` (a slash before the end) matches the path relative to the workdir;
 * - globs are matched with Node's `path.matchesGlob`.
 * Nested `.gitignore` files and global git excludes are not read. `.git` and `node_modules` are always skipped.
 */
export class IgnoreRules {
  readonly base: string;
  readonly #rules: readonly Rule[];

  constructor(base: string, gitignoreText = '') {
    this.base = base;
    this.#rules = parseGitignore(gitignoreText);
  }

  /** Whether the search tools skip this entry; `absPath` is a real absolute path. */
  isIgnored(absPath: string, isDirectory: boolean): boolean {
    const name = absPath.slice(absPath.lastIndexOf(sep) + 1);
    if (isDirectory && alwaysIgnored.includes(name)) return true;
    const rel = relative(this.base, absPath);
    // The workdir's `.gitignore` speaks only about paths inside the workdir.
    if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return false;
    const relPosix = sep === '/' ? rel : rel.split(sep).join('/');
    return this.#rules.some(
      (rule) => (isDirectory || !rule.dirOnly) && matchesGlob(rule.anchored ? relPosix : name, rule.glob),
    );
  }
}

/** Reads `<workdir>/.gitignore` (missing file: only the built-in names are skipped). */
export async function loadIgnoreRules(workdir: string): Promise<IgnoreRules> {
  const text = await readFile(join(workdir, '.gitignore'), 'utf8').catch(() => '');
  return new IgnoreRules(workdir, text);
}

function parseGitignore(text: string): Rule[] {
  const rules: Rule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    const dirOnly = line.endsWith('/');
    if (dirOnly) line = line.replace(/\/+$/, '');
    const anchored = line.includes('/');
    line = line.replace(/^\/+/, '');
    if (line !== '') rules.push({ glob: line, dirOnly, anchored });
  }
  return rules;
}
