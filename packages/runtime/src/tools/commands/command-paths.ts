import type { Invocation } from './command-invocations.ts';
import { programName } from './command-invocations.ts';
import type { ShellWord } from './shell-parser.ts';

/** A path a command writes to (or works in), and what makes it one, for the refusal message. */
export interface TouchedPath {
  word: ShellWord;
  why: string;
}

// Redirections that open their target for writing; `>&` and `<>` too, unless the target is a descriptor.
const writingRedirect = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);
// Devices a command may always write to; bash's /dev/tcp and /dev/udp are network, the sandbox's business.
const harmlessTargets = /^\/dev\/(?:null|stdout|stderr|tty|fd\/\d+|tcp\/.+|udp\/.+)$/;

/** Programs whose every operand is a file they create, change or delete. */
const writesEveryOperand = new Set([
  'tee',
  'touch',
  'mkdir',
  'rm',
  'rmdir',
  'unlink',
  'truncate',
  'shred',
  'chmod',
  'chown',
  'chgrp',
]);
/** Programs whose last operand is where they write (and `-t DIR` when given). */
const writesLastOperand = new Set(['cp', 'mv', 'install', 'ln', 'rsync']);
/** Options, of any program, whose value is a file or directory it writes. */
const outputOptions =
  /^--(?:output|output-file|outfile|out-file|outdir|out-dir|outDir|output-directory|log-file|index-file|target-directory|directory|git-dir|work-tree|separate-git-dir)$/;
/** `-o FILE` (and wget's `-O FILE`) for the programs where it means an output file. */
const shortOutput: Record<string, string> = {
  curl: '-o',
  sort: '-o',
  gcc: '-o',
  'g++': '-o',
  cc: '-o',
  clang: '-o',
  go: '-o',
  wget: '-O',
  unzip: '-d',
  tar: '-C',
};

/**
 * The paths an invocation writes to or works in, as far as its words say: redirection targets, the
 * operands of programs that write files, output options, `git -C`, `dd of=`, `cd`. Each must lie inside the
 * boundary the file tools have; a path only known when the shell runs is reported too (as dynamic).
 */
export function touchedPaths(invocation: Invocation): TouchedPath[] {
  const touched: TouchedPath[] = [];
  for (const redirect of invocation.redirects) {
    if (!writingRedirect.has(redirect.operator)) continue;
    const target = redirect.target;
    if (redirect.operator === '>&' && /^(?:\d+|-)$/.test(target.text)) continue;
    if (!target.dynamic && harmlessTargets.test(target.text)) continue;
    touched.push({ word: target, why: `the redirection '${redirect.operator}' writes to it` });
  }
  const [program, ...args] = invocation.words;
  const name = programName(program);
  const operands = operandsOf(args);
  if (writesEveryOperand.has(name)) {
    const files = name === 'chmod' || name === 'chown' || name === 'chgrp' ? operands.slice(1) : operands;
    for (const word of files) touched.push({ word, why: `${name} changes it` });
  }
  if (writesLastOperand.has(name) && operands.length > 1) {
    touched.push({ word: operands.at(-1)!, why: `${name} writes there` });
    // A link made by ln -s points where its target says: outside, it would open a way out later.
    if (name === 'ln')
      for (const word of operands.slice(0, -1)) touched.push({ word, why: 'ln links to it' });
  }
  if (
    name === 'sed' &&
    args.some((word) => /^(?:-i|--in-place)/.test(word.text) || /^-[a-zA-Z]*i/.test(word.text))
  ) {
    const scripted = args.some((word) => /^(?:-e|-f|--expression|--file)/.test(word.text));
    for (const word of scripted ? operands : operands.slice(1))
      touched.push({ word, why: 'sed -i rewrites it' });
  }
  // find's start points are what -exec, -delete and the -fprint family act on.
  if (name === 'find' && args.some((word) => findActions.test(word.text))) {
    for (const word of findStarts(args)) touched.push({ word, why: `find acts on what it finds under it` });
  }
  // find's -fprint family writes its output file wherever it is named.
  if (name === 'find') {
    for (const [index, word] of args.entries()) {
      const file = args[index + 1];
      if (findOutputs.test(word.text) && file)
        touched.push({ word: file, why: `find ${word.text} writes it` });
    }
  }
  if (name === 'tar') touched.push(...tarArchiveWrites(args));
  if (name === 'git') touched.push(...gitSubcommandWrites(args));
  if (name === 'cd' || name === 'pushd') {
    for (const word of operands.slice(0, 1)) touched.push({ word, why: `${name} moves the command there` });
  }
  for (const [index, word] of args.entries()) {
    const next = args[index + 1];
    const inline = /^(--[A-Za-z-]+)=(.*)$/.exec(word.text);
    if (inline?.[1] && outputOptions.test(inline[1])) {
      touched.push({
        word: { text: inline[2] ?? '', dynamic: word.dynamic },
        why: `${inline[1]} writes there`,
      });
    } else if (next && (outputOptions.test(word.text) || word.text === shortOutput[name])) {
      touched.push({ word: next, why: `${name} ${word.text} writes there` });
    } else if (shortOutput[name] && word.text.length > 2 && word.text.startsWith(shortOutput[name])) {
      // The value attached to the option: curl -o/path, tar -C/dir.
      const option = shortOutput[name];
      touched.push({
        word: { text: word.text.slice(option.length), dynamic: word.dynamic },
        why: `${name} ${option} writes there`,
      });
    } else if (name === 'git' && word.text === '-C' && next) {
      touched.push({ word: next, why: 'git -C works there' });
    } else if (
      (name === 'cp' || name === 'mv' || name === 'install' || name === 'ln') &&
      word.text === '-t' &&
      next
    ) {
      touched.push({ word: next, why: `${name} -t writes there` });
    } else if (name === 'dd' && word.text.startsWith('of=')) {
      touched.push({ word: { text: word.text.slice(3), dynamic: word.dynamic }, why: 'dd of= writes there' });
    }
  }
  return touched;
}

const findActions = /^-(?:exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/;
const findOutputs = /^-(?:fprint|fprint0|fprintf|fls)$/;

/** tar's archive file when tar creates or adds to it (`-cf FILE`, `cf FILE`, `--file=FILE` with `-c`). */
function tarArchiveWrites(args: ShellWord[]): TouchedPath[] {
  const clusters = args.filter(
    (word, index) => /^-[A-Za-z]+$/.test(word.text) || (index === 0 && /^[A-Za-z]+$/.test(word.text)),
  );
  const writes =
    clusters.some((word) => /[cruA]/.test(word.text)) ||
    args.some((word) => /^--(?:create|append|update|concatenate|catenate)$/.test(word.text));
  if (!writes) return [];
  const files: TouchedPath[] = [];
  for (const [index, word] of args.entries()) {
    const next = args[index + 1];
    if (clusters.includes(word) && word.text.includes('f') && next)
      files.push({ word: next, why: 'tar writes the archive there' });
    else if (word.text === '--file' && next) files.push({ word: next, why: 'tar writes the archive there' });
    else if (word.text.startsWith('--file=')) {
      files.push({
        word: { text: word.text.slice(7), dynamic: word.dynamic },
        why: 'tar writes the archive there',
      });
    }
  }
  return files;
}

// git's options that take a value before the subcommand: their values are not the subcommand.
const gitValueOptions = new Set([
  '-c',
  '-C',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--super-prefix',
  '--config-env',
]);

/** Where git subcommands that make repositories or files elsewhere write: clone, init, worktree add, bundle create. */
function gitSubcommandWrites(args: ShellWord[]): TouchedPath[] {
  let at = 0;
  while (at < args.length && args[at]!.text.startsWith('-'))
    at += gitValueOptions.has(args[at]!.text) ? 2 : 1;
  const subcommand = args[at]?.text;
  const rest = operandsOf(args.slice(at + 1));
  const why = `git ${subcommand} writes there`;
  const touched: TouchedPath[] = [];
  if (subcommand === 'clone' && rest.length >= 2) touched.push({ word: rest[1]!, why });
  if (subcommand === 'init' && rest[0]) touched.push({ word: rest[0], why });
  if (subcommand === 'worktree' && rest[0]?.text === 'add' && rest[1])
    touched.push({ word: rest[1], why: 'git worktree add writes there' });
  if (subcommand === 'bundle' && rest[0]?.text === 'create' && rest[1])
    touched.push({ word: rest[1], why: 'git bundle create writes there' });
  for (const [index, word] of args.slice(at + 1).entries()) {
    const next = args[at + 2 + index];
    if ((subcommand === 'archive' || subcommand === 'format-patch') && word.text === '-o' && next)
      touched.push({ word: next, why });
    if (/^--separate-git-dir=/.test(word.text)) {
      touched.push({ word: { text: word.text.split('=').slice(1).join('='), dynamic: word.dynamic }, why });
    }
  }
  return touched;
}

/** find's start points: the words before its first expression (`-name`, `(`, `!`). */
function findStarts(args: ShellWord[]): ShellWord[] {
  const starts: ShellWord[] = [];
  for (const word of args) {
    if (/^[-(!]/.test(word.text) && !['-H', '-L', '-P'].includes(word.text)) break;
    if (!word.text.startsWith('-')) starts.push(word);
  }
  return starts.length > 0 ? starts : [{ text: '.', dynamic: false }];
}

/** True when a program that writes its operands gets them from xargs, where no check can see them. */
export function writesUnseenOperands(invocation: Invocation): boolean {
  const name = programName(invocation.words[0]);
  const writer = writesEveryOperand.has(name) || writesLastOperand.has(name) || name === 'sed';
  return writer && /^\s*(?:\S*\/)?xargs\b/.test(invocation.text);
}

/** The words after the options (and after `--`): the files a command works on. */
function operandsOf(args: ShellWord[]): ShellWord[] {
  const operands: ShellWord[] = [];
  let optionsEnded = false;
  for (const word of args) {
    if (!optionsEnded && word.text === '--') optionsEnded = true;
    else if (optionsEnded || !word.text.startsWith('-') || word.text === '-') operands.push(word);
  }
  return operands;
}
