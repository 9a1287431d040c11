import { readdir } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { KeelError, PermissionDeniedError } from '../../errors/index.ts';
import type { PathGuard } from '../path-guard.ts';
import { type Invocation, invocationsOf, programName } from './command-invocations.ts';
import { ShellSyntaxError, type ShellWord } from './shell-parser.ts';

/**
 * What happens to a command that is not known to only read when no sandbox backend confines commands and
 * the user did not turn the sandbox off on purpose (`sandbox.enabled: false`):
 * - `ask`: the run asks the user to approve it first (exec_command then runs what was approved);
 * - `refuse`: it is refused with how to allow it (surfaces where nobody can answer, like the workbench).
 */
export type UnconfinedCommands = 'ask' | 'refuse';

/**
 * Programs that read files and print, and write nothing (the argument table has already refused their
 * forms that run another program or write, such as `find -exec`, `sort -o` and `rg --pre`). git is not
 * here: without a sandbox, a repository's own `.git/config` can make even `git status` run a program.
 */
const readOnlyPrograms = new Set([
  'ls',
  'pwd',
  'cd',
  'cat',
  'head',
  'tail',
  'wc',
  'file',
  'stat',
  'du',
  'tree',
  'realpath',
  'readlink',
  'basename',
  'dirname',
  'echo',
  'printf',
  'true',
  'false',
  'test',
  '[',
  '[[',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'find',
  'diff',
  'cmp',
  'comm',
  'sort',
  'uniq',
  'cut',
  'tr',
  'nl',
  'column',
  'fold',
  'rev',
  'jq',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'od',
]);
// Of those, the programs whose operands are text, not files (test's reveal whether a file exists, no more).
const textOperands = new Set([
  'echo',
  'printf',
  'true',
  'false',
  'pwd',
  'basename',
  'dirname',
  'tr',
  'test',
  '[',
  '[[',
]);
// Redirections that only read their target; every other redirection writes (or is a descriptor).
const readingRedirect = new Set(['<', '<&']);
const harmlessTarget = /^(?:\/dev\/(?:null|stdout|stderr|stdin)|\d+|-)$/;

/**
 * Why `command` cannot run unconfined without the user's approval, or undefined when it only reads, and
 * only inside the read boundary the file tools keep (the workdir and allowed roots, unless
 * `security.strict_read_boundary` is off). A command the shell parser cannot follow needs approval.
 */
export async function unconfinedRisk(
  command: string,
  guard: PathGuard,
  cwd: string,
): Promise<string | undefined> {
  let invocations: Invocation[];
  try {
    invocations = invocationsOf(command);
  } catch (error) {
    if (error instanceof ShellSyntaxError) return 'cannot be checked before it runs';
    throw error;
  }
  const bases = [cwd];
  for (const invocation of invocations) {
    const name = programName(invocation.words[0]);
    if (invocation.words.length === 0) continue;
    if (!readOnlyPrograms.has(name))
      return `runs ${name || invocation.words[0]!.text}, which is not known to only read`;
    if (invocation.wrappers.some((words) => programName(words[0]) === 'xargs')) {
      return `runs ${name} through xargs, on paths only known when it runs`;
    }
    for (const redirect of invocation.redirects) {
      if (harmlessTarget.test(redirect.target.text) && !redirect.target.dynamic) continue;
      if (!readingRedirect.has(redirect.operator))
        return `writes through the redirection '${redirect.operator}'`;
      const outside = await readsOutside(redirect.target, bases, guard);
      if (outside) return outside;
    }
    const follows = followsLinks(name, invocation.words.slice(1));
    if (follows)
      return `follows links while it reads (${follows}), which may lead outside the working directory`;
    const operands = textOperands.has(name) ? [] : pathLikeWords(invocation.words.slice(1));
    for (const word of operands) {
      const outside = await readsOutside(word, bases, guard);
      if (outside) return outside;
      if (name === 'cd') bases.push(resolve(cwd, word.text));
    }
  }
  return undefined;
}

/** Operands, and the values of `--option=value` options: whatever could name a file the program reads. */
function pathLikeWords(args: ShellWord[]): ShellWord[] {
  return args.flatMap((word) => {
    if (!word.text.startsWith('-') || word.text === '-') return [word];
    const value = /^--?[^=]+=(.+)$/.exec(word.text)?.[1];
    return value === undefined ? [] : [{ text: value, dynamic: word.dynamic }];
  });
}

/** Why reading `word` leaves the read boundary, or undefined when it stays inside. */
async function readsOutside(word: ShellWord, bases: string[], guard: PathGuard): Promise<string | undefined> {
  if (/[$`]/.test(word.text)) return `reads '${word.text}', a path only known when the shell runs`;
  if (word.text.startsWith('~')) return `reads '${word.text}' in the home directory`;
  if (harmlessTarget.test(word.text)) return undefined;
  // A glob is judged by the folder before its first pattern character (`../*.txt` → `..`).
  const firstPattern = word.dynamic ? word.text.search(/[*?[]/) : -1;
  const text =
    firstPattern === -1 ? word.text : word.text.slice(0, word.text.lastIndexOf('/', firstPattern) + 1) || '.';
  for (const base of bases) {
    try {
      const folder = await guard.resolve(resolve(base, text), 'read');
      // The shell expands a glob to whatever it matches, links included: look at what it could match.
      if (firstPattern !== -1) {
        const depth = word.text.slice(firstPattern).split('/').length;
        const link = await linkLeaving(folder, depth, guard);
        if (link) return `reads '${word.text}', which may match ${link}`;
      }
    } catch (error) {
      if (!KeelError.is(error) || error.code !== 'PERMISSION_DENIED') throw error;
      return `reads '${word.text}', outside the working directory and allowed roots`;
    }
  }
  return undefined;
}

// Options that make a reading program follow the links it meets inside folders (on the command line the
// operand check already followed them). Short flags may be bundled (`-Rn`).
const linkFollowing: Record<string, { short?: string; long: RegExp }> = {
  grep: { short: 'R', long: /^--dereference-recursive$/ },
  egrep: { short: 'R', long: /^--dereference-recursive$/ },
  fgrep: { short: 'R', long: /^--dereference-recursive$/ },
  rg: { short: 'L', long: /^--follow$/ },
  find: { short: 'L', long: /^-follow$/ },
  du: { short: 'L', long: /^--dereference$/ },
  ls: { short: 'L', long: /^--dereference$/ },
  tree: { short: 'l', long: /^--follow$/ },
  file: { short: 'L', long: /^--dereference$/ },
  // diff -r opens the files the links in both folders lead to.
  diff: { short: 'r', long: /^--recursive$/ },
};

/** The option that makes `program` follow links inside folders, or undefined. */
function followsLinks(program: string, args: ShellWord[]): string | undefined {
  const rule = linkFollowing[program];
  if (!rule) return undefined;
  return args.find(
    (word) =>
      rule.long.test(word.text) ||
      (rule.short !== undefined &&
        /^-[A-Za-z0-9]+$/.test(word.text) &&
        word.text.slice(1).includes(rule.short)),
  )?.text;
}

const maxGlobEntries = 5000;

/**
 * What a glob over `folder` (at most `depth` levels down) could match that leaves the read boundary: a link
 * leading outside, or more than `maxGlobEntries` entries (too many to check cheaply); undefined when none.
 */
async function linkLeaving(folder: string, depth: number, guard: PathGuard): Promise<string | undefined> {
  let seen = 0;
  let level = [folder];
  for (let step = 0; step < depth && level.length > 0; step += 1) {
    const next: string[] = [];
    for (const dir of level) {
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const path = join(dir, entry.name);
        seen += 1;
        if (seen > maxGlobEntries)
          return `more than ${maxGlobEntries} files to check under '${relative(guard.workdir, folder) || '.'}'`;
        if (entry.isDirectory()) next.push(path);
        else if (entry.isSymbolicLink()) {
          try {
            await guard.resolve(path, 'read');
          } catch (error) {
            if (!KeelError.is(error) || error.code !== 'PERMISSION_DENIED') throw error;
            return `'${relative(guard.workdir, path)}', a link that leads outside the working directory`;
          }
        }
      }
    }
    level = next;
  }
  return undefined;
}

/** The sentence every unconfined refusal and approval ends with: why there is no sandbox and the ways out. */
export const unconfinedAdvice =
  'No sandbox confines commands on this machine (install bubblewrap: apt-get install bubblewrap), so only ' +
  'commands known to only read inside the working directory run without asking. To run commands unconfined ' +
  'on purpose, set sandbox.enabled to false in the global config (keel config set sandbox.enabled false).';

/** Throws PermissionDeniedError for a command the `refuse` mode does not run. */
export function refuseUnconfined(command: string, risk: string): never {
  throw new PermissionDeniedError(`Command refused: "${command}" ${risk}. ${unconfinedAdvice}`, {
    command,
    reason: 'no_sandbox',
  });
}
