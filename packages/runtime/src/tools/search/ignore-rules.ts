import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { type Ignore, ignore } from './vendor/ignore.ts';

/** Directory names never searched, wherever they are. */
export const alwaysIgnored: readonly string[] = ['.git', 'node_modules'];

/**
 * The `.gitignore` rules a search walk honours, read as git reads them: every `.gitignore` from `base` down
 * to the directory being listed, the deeper file and the later line winning, `!` negations re-including, and
 * nothing re-included under a directory that is itself ignored (the walk never enters it).
 *
 * Each file's patterns are rewritten relative to `base` (`*.log` in `sub/` becomes `sub/**\/*.log`) and
 * added after its parent directories' rules to one `ignore` matcher per directory, so one lookup applies
 * them all in git's order. Global excludes and `.git/info/exclude` are not read; `.git` and
 * `node_modules` are always skipped.
 */
export class IgnoreRules {
  /** The directory paths are matched relative to: the workdir, or the search root (see loadIgnoreRules). */
  readonly base: string;
  #matcher: Ignore;
  /** No pattern at all (no .gitignore on the way): only the built-in names are skipped. */
  #empty: boolean;

  /** Rules over `base` from one `.gitignore` text (the base's own); `within` adds deeper ones. */
  constructor(base: string, gitignoreText = '') {
    this.base = base;
    const patterns = rebase(gitignoreText, '');
    this.#matcher = ignore({ ignorecase: false }).add(patterns);
    this.#empty = patterns.length === 0;
  }

  /** Whether the search tools skip this entry; `absPath` is an absolute path under `base`. */
  isIgnored(absPath: string, isDirectory: boolean): boolean {
    if (isDirectory && alwaysIgnored.includes(absPath.slice(absPath.lastIndexOf(sep) + 1))) return true;
    if (this.#empty) return false;
    // The rules speak only about paths below their base (the walk's paths are normalised: a prefix test will do).
    const prefix = this.base.endsWith(sep) ? this.base : `${this.base}${sep}`;
    if (!absPath.startsWith(prefix) || absPath.length === prefix.length) return false;
    const rel = absPath.slice(prefix.length);
    const posix = sep === '/' ? rel : rel.split(sep).join('/');
    return this.#matcher.ignores(isDirectory ? `${posix}/` : posix);
  }

  /**
   * The rules for the entries of `dir` (a directory under `base` the walk enters), given that directory's
   * own `.gitignore` text: these rules plus that file's, or these rules when there is nothing to add.
   */
  within(dir: string, gitignoreText: string): IgnoreRules {
    const relDir = relative(this.base, dir).split(sep).join('/');
    const patterns = rebase(gitignoreText, relDir);
    if (patterns.length === 0) return this;
    const rules = new IgnoreRules(this.base);
    rules.#matcher = ignore({ ignorecase: false }).add(this.#matcher).add(patterns);
    rules.#empty = false;
    return rules;
  }
}

/**
 * The rules for a walk from `root` (a real directory; the workdir by default): when `root` lies in the
 * workdir, every `.gitignore` from the workdir down to `root`'s parent, matched relative to the workdir
 * (the walk reads `root`'s own and deeper ones as it enters them). A `root` that those rules ignore was
 * named on purpose and is searched, under its own `.gitignore` files only; so is a `root` outside the workdir.
 */
export async function loadIgnoreRules(workdir: string, root = workdir): Promise<IgnoreRules> {
  const rel = relative(workdir, root);
  if (rel === '') return new IgnoreRules(workdir);
  if (rel === '..' || rel.startsWith(`..${sep}`) || rel.startsWith(sep)) return new IgnoreRules(root);
  let rules = new IgnoreRules(workdir);
  let dir = workdir;
  for (const name of rel.split(sep)) {
    rules = rules.within(dir, await readGitignore(dir));
    dir = join(dir, name);
    if (rules.isIgnored(dir, true)) return new IgnoreRules(root);
  }
  return rules;
}

/** A directory's `.gitignore` text, or '' when it has none (or it cannot be read). */
export function readGitignore(dir: string): Promise<string> {
  return readFile(join(dir, '.gitignore'), 'utf8').catch(() => '');
}

/**
 * The patterns of a `.gitignore` in `relDir` (relative to the rules' base, '' for the base itself), rewritten
 * to match paths relative to the base, as git reads them: a pattern with a slash before its end is anchored
 * to the file's directory, any other matches a name at any depth below it.
 */
function rebase(text: string, relDir: string): string[] {
  const patterns: string[] = [];
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const line = trimTrailingSpaces(raw);
    if (line === '' || line.startsWith('#')) continue;
    if (relDir === '') {
      patterns.push(line);
      continue;
    }
    const negative = line.startsWith('!');
    let body = negative ? line.slice(1) : line;
    const dirOnly = body.endsWith('/');
    if (dirOnly) body = body.slice(0, -1);
    const anchored = body.includes('/');
    if (anchored) body = body.replace(/^\//, '');
    if (body === '') continue;
    const rebased = anchored ? `${relDir}/${body}` : `${relDir}/**/${body}`;
    patterns.push(`${negative ? '!' : ''}${rebased}${dirOnly ? '/' : ''}`);
  }
  return patterns;
}

/** Drops trailing spaces, keeping one a backslash escapes (`a\ ` keeps its space), as git does. */
function trimTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === ' ') end--;
  if (end === line.length) return line;
  let backslashes = 0;
  while (end - backslashes > 0 && line[end - backslashes - 1] === '\\') backslashes++;
  return line.slice(0, backslashes % 2 === 1 ? end + 1 : end);
}
