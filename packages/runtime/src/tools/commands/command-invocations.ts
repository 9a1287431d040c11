import { basename } from 'node:path';
import { wrapperParts } from './command-wrappers.ts';
import {
  parseCommandLine,
  type ShellRedirect,
  ShellSyntaxError,
  type ShellWord,
  type SimpleCommand,
} from './shell-parser.ts';

/** A program the shell would start, as the command policy judges it. */
export interface Invocation {
  /** The program and its arguments, with keywords, assignments and wrappers such as `time` taken off. */
  words: ShellWord[];
  /** The wrappers it was started through (`timeout 5`, `xargs -n 1`), each with its own words. */
  wrappers: ShellWord[][];
  /** Variable assignments for it (`FOO=1 cmd`, `env FOO=1 cmd`), as written. */
  assignments: string[];
  redirects: ShellRedirect[];
  /** The simple command it came from, for messages. */
  text: string;
}

/**
 * The programs a command line runs: each simple command, with the wrappers that only run another
 * command (`time`, `env`, `xargs`, …) looked through, plus the commands hidden in arguments: `sh -c`,
 * `eval`, `sudo`, `find -exec` (and `find -delete`, which amounts to `rm -r`).
 */
export function invocationsOf(source: string): Invocation[] {
  return parseCommandLine(source).flatMap((command) => fromCommand(command, 0));
}

const maxNesting = 8;
// Reserved words that open or continue a compound command: what follows them is the command.
const leadingKeywords = new Set(['if', 'then', 'elif', 'else', 'do', 'while', 'until', '!', '{']);
// Reserved words that close a compound command and run nothing themselves.
const closingKeywords = new Set(['fi', 'done', 'esac', '}']);
const assignment = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
const shells = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh']);

function fromCommand(command: SimpleCommand, depth: number): Invocation[] {
  if (depth > maxNesting) throw new ShellSyntaxError('The command nests shells too deeply to check.', true);
  let words = [...command.words];
  while (words.length > 0 && isWord(words[0], leadingKeywords)) words.shift();
  // `for x in …` and `select` headers run nothing themselves (their substitutions are separate commands).
  if (isWord(words[0], closingKeywords) || isWord(words[0], new Set(['for', 'select']))) words = [];
  const assignments: string[] = [];
  while (words[0] && assignment.test(words[0].text)) assignments.push(words.shift()!.text);
  const through: ShellWord[][] = [];
  words = unwrap(words, assignments, through);
  const invocation: Invocation = {
    words,
    wrappers: through,
    assignments,
    redirects: command.redirects,
    text: command.text,
  };
  const nested = hiddenCommands(words).flatMap((inner) =>
    typeof inner === 'string'
      ? parseCommandLine(inner).flatMap((parsed) => fromCommand(parsed, depth + 1))
      : fromCommand(
          { words: inner, redirects: [], text: `${joinWords(inner)} (run by ${command.text})` },
          depth + 1,
        ),
  );
  return [invocation, ...nested];
}

function joinWords(words: ShellWord[]): string {
  return words.map((word) => word.text).join(' ');
}

function isWord(word: ShellWord | undefined, set: Set<string>): boolean {
  return word !== undefined && !word.dynamic && set.has(word.text);
}

/** The program name of a word: `/usr/bin/env` counts as `env`. */
export function programName(word: ShellWord | undefined): string {
  return word === undefined || word.dynamic ? '' : basename(word.text);
}

/**
 * Looks through wrappers that only start another command with the same rights. A wrapper with no command
 * after it (`env` alone prints the environment) is the command itself. Each wrapper looked through is kept
 * in `through`, so that its options can be judged too.
 */
function unwrap(words: ShellWord[], assignments: string[], through: ShellWord[][]): ShellWord[] {
  for (;;) {
    const rest = afterWrapper(words, assignments);
    if (rest === undefined || rest.length === 0) return words;
    through.push(words);
    words = rest;
  }
}

function afterWrapper(words: ShellWord[], assignments: string[]): ShellWord[] | undefined {
  const name = programName(words[0]);
  const args = words.slice(1);
  // `command -v x` asks where x is; only `command x` runs it.
  if (name === 'command' && args.some((word) => word.text === '-v' || word.text === '-V')) return undefined;
  if (name === 'env' && args.some((word) => /^(?:-S|--split-string)/.test(word.text))) {
    throw new ShellSyntaxError('env -S is not supported by the command check.', true);
  }
  const rest = wrapperParts(name, args)?.command;
  if (rest === undefined) return undefined;
  if (name === 'xargs' && rest.length === 0) return [{ text: 'echo', dynamic: false }];
  if (name === 'env') while (rest[0] && assignment.test(rest[0].text)) assignments.push(rest.shift()!.text);
  return rest;
}

/** Drops leading options (and the values of those in `withValue`) up to the first operand or `--`. */
function skipOptions(args: ShellWord[], withValue: readonly string[]): ShellWord[] {
  let index = 0;
  while (index < args.length) {
    const text = args[index]!.text;
    if (text === '--') return args.slice(index + 1);
    if (!text.startsWith('-') || text === '-') break;
    index += withValue.includes(text) ? 2 : 1;
  }
  return args.slice(index);
}

/** Commands an invocation runs through its arguments: a script (string) or the words of a command. */
function hiddenCommands(words: ShellWord[]): (string | ShellWord[])[] {
  const name = programName(words[0]);
  const args = words.slice(1);
  if (shells.has(name)) {
    const flag = args.findIndex((word) => /^-[A-Za-z]*c[A-Za-z]*$/.test(word.text));
    const script = flag === -1 ? undefined : args[flag + 1];
    return script ? [script.text] : [];
  }
  if (name === 'eval') return args.length > 0 ? [joinWords(args)] : [];
  if (name === 'sudo' || name === 'doas') {
    const rest = skipOptions(args, ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-T', '-U']);
    return rest.length > 0 ? [rest] : [];
  }
  if (name === 'find') return findActions(args);
  return [];
}

/** `find … -exec cmd {} ;` runs cmd; `find dir -delete` removes like `rm -r dir`. */
function findActions(args: ShellWord[]): ShellWord[][] {
  const actions: ShellWord[][] = [];
  const firstExpression = args.findIndex((word) => /^[-(!]/.test(word.text));
  const starts = args.slice(0, firstExpression === -1 ? args.length : firstExpression);
  for (let index = 0; index < args.length; index++) {
    const text = args[index]!.text;
    if (/^-(?:exec|execdir|ok|okdir)$/.test(text)) {
      const end = args.findIndex((word, at) => at > index && (word.text === ';' || word.text === '+'));
      const command = args.slice(index + 1, end === -1 ? args.length : end);
      if (command.length > 0) actions.push(command);
      index = end === -1 ? args.length : end;
    } else if (text === '-delete') {
      const targets = starts.length > 0 ? starts : [{ text: '.', dynamic: false }];
      actions.push([{ text: 'rm', dynamic: false }, { text: '-r', dynamic: false }, ...targets]);
    }
  }
  return actions;
}
