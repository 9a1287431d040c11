import { resolve } from 'node:path';
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
      await guard.resolve(resolve(base, text), 'read');
    } catch (error) {
      if (!KeelError.is(error) || error.code !== 'PERMISSION_DENIED') throw error;
      return `reads '${word.text}', outside the working directory and allowed roots`;
    }
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
