import type { ShellWord } from './shell-parser.ts';

/** What a rule of the argument table found: the argument as written, and how to permit it on purpose. */
export interface Found {
  /** The argument, or what in it is refused (`--pre`, `system() in its program`). */
  argument: string;
  /** The option an allow-list entry "<program> <option>" names to permit this; none: only "*" does. */
  permit?: string;
  /** Why, when it differs from the rule's. */
  why?: string;
  /** What the command does, when "uses <program>'s <argument>" would not say it. */
  does?: (program: string) => string;
}

/** The options of a command up to its first operand (or `--`), and where that operand is. */
export interface Scanned {
  options: ShellWord[];
  /** Index of the first operand in the arguments; -1 when there is none. */
  operand: number;
}

/**
 * Walks the options before the first operand. `values` are options whose value is the next word; `stop`
 * options end the options (python's `-m`: the rest belongs to the module).
 */
export function scanOptions(
  args: ShellWord[],
  values: readonly string[],
  stop: readonly string[] = [],
): Scanned {
  const options: ShellWord[] = [];
  for (let index = 0; index < args.length; index++) {
    const text = args[index]!.text;
    if (text === '--') return { options, operand: index + 1 < args.length ? index + 1 : -1 };
    if (!/^[-+]./.test(text)) return { options, operand: index };
    options.push(args[index]!);
    if (stop.includes(text)) return { options, operand: -1 };
    if (values.includes(text)) index++;
  }
  return { options, operand: -1 };
}

/** The words before `--` that look like options: for programs that take options after operands too. */
export function optionsAnywhere(args: ShellWord[]): ShellWord[] {
  const end = args.findIndex((word) => word.text === '--');
  return (end === -1 ? args : args.slice(0, end)).filter((word) => word.text.startsWith('-'));
}

/** The first option matching one of `patterns`, reported with the permit option `permit`. */
export function firstOption(
  words: ShellWord[],
  rules: readonly [RegExp, string | undefined][],
): Found | undefined {
  for (const word of words) {
    for (const [pattern, permit] of rules) {
      if (pattern.test(word.text)) return { argument: word.text, ...(permit ? { permit } : {}) };
    }
  }
  return undefined;
}

/**
 * An interpreter given code on its command line (`node -e`, `python -c`), or none to run, so that it reads
 * its program from its input (`echo code | python3`, a here-document).
 */
export function interpreterCode(
  args: ShellWord[],
  spec: { code: RegExp; permit: string; values: readonly string[]; modes: readonly string[] },
): Found | undefined {
  const { options, operand } = scanOptions(args, spec.values, spec.modes);
  const code = options.find((word) => spec.code.test(word.text));
  if (code) return { argument: code.text, permit: spec.permit };
  if (options.some((word) => spec.modes.includes(word.text))) return undefined;
  if (operand === -1 || args[operand]!.text === '-') {
    return {
      argument: operand === -1 ? 'no script file' : '-',
      does: (program) => (operand === -1 ? `runs ${program} without a script file` : `uses ${program} -`),
      why: "makes it read the code it runs from its input, out of the command check's sight",
    };
  }
  return undefined;
}

/** git's global options and its subcommand with the arguments after it. */
export function gitParts(args: ShellWord[]): { global: ShellWord[]; subcommand?: string; rest: ShellWord[] } {
  const withValue = ['-c', '-C', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env'];
  let at = 0;
  while (at < args.length && args[at]!.text.startsWith('-')) at += withValue.includes(args[at]!.text) ? 2 : 1;
  const subcommand = args[at]?.text;
  return {
    global: args.slice(0, at),
    ...(subcommand ? { subcommand } : {}),
    rest: args.slice(at + 1),
  };
}

// git settings whose value is a program git runs, or a file it loads settings or hooks from.
const gitRunningKeys =
  /^(?:core\.(?:pager|editor|sshcommand|fsmonitor|hookspath|askpass|gitproxy)|sequence\.editor|diff\.external|diff\.[^.]+\.(?:textconv|command)|merge\.[^.]+\.driver|filter\.[^.]+\.(?:clean|smudge|process)|credential\.helper|gpg\.program|gpg\.[^.]+\.program|include\.path|includeif\..+|uploadpack\.packobjectshook|pager\..+|man\.[^.]+\.cmd|web\.browser|browser\.[^.]+\.cmd|remote\.[^.]+\.(?:uploadpack|receivepack|proxy)|protocol\.[^.]+\.allow|http\.proxy)$/i;

/** git's global options that make it run another program: `-c core.pager=…`, a `!` alias, `--config-env`. */
export function gitGlobalRunner(global: ShellWord[]): Found | undefined {
  for (const [index, word] of global.entries()) {
    const setting = word.text === '-c' ? global[index + 1]?.text : /^-c(.+)$/.exec(word.text)?.[1];
    if (setting !== undefined) {
      const at = setting.indexOf('=');
      const key = at === -1 ? setting : setting.slice(0, at);
      const value = at === -1 ? '' : setting.slice(at + 1);
      if (gitRunningKeys.test(key)) return { argument: `-c ${key}` };
      if (/^alias\./i.test(key) && value.trimStart().startsWith('!')) {
        return { argument: `-c ${key}=!…`, why: 'defines a git alias that runs a shell command' };
      }
    }
    if (/^--(?:config-env|exec-path)(?:=|$)/.test(word.text)) return { argument: word.text.split('=')[0]! };
  }
  return undefined;
}

/** awk's program: refused when it runs commands or writes files, or cannot be seen. */
export function awkProgram(args: ShellWord[]): Found | undefined {
  const { options, operand } = scanOptions(args, ['-F', '-v', '-f', '-E', '-i', '-l', '-W', '--file']);
  const file = options.find((word) => /^(?:-[fEil]|--(?:file|exec|include|load)(?:=|$))/.test(word.text));
  if (file) {
    return {
      argument: file.text.split('=')[0]!,
      permit: file.text.split('=')[0]!,
      why: 'loads a program from a file the command check cannot see',
    };
  }
  const script = operand === -1 ? undefined : args[operand]!;
  if (script === undefined) return undefined;
  if (script.dynamic && /[$`]/.test(script.text)) {
    return { argument: 'a program only known when the shell runs', why: 'could run commands or write files' };
  }
  if (/\bsystem\s*\(|\|\s*getline|\|&|print[^;}]*\|/.test(script.text)) {
    return { argument: 'system(), a pipe or getline in its program', why: 'runs a command' };
  }
  if (/printf?[^;}]*>/.test(script.text)) {
    return { argument: 'print > file in its program', why: 'writes a file' };
  }
  return undefined;
}

/** sed's in-place edits, script files, and the `e` (run) and `w` (write) commands of its script. */
export function sedScript(args: ShellWord[]): Found | undefined {
  const scripts: ShellWord[] = [];
  let explicit = false;
  for (const [index, word] of args.entries()) {
    const text = word.text;
    if (text === '--') break;
    if (/^(?:-[nrEsuz]*i|--in-place(?:=|$))/.test(text)) {
      return { argument: text, permit: '-i', why: 'rewrites the files it is given' };
    }
    if (/^(?:-[nrEsuz]*f|--file(?:=|$))/.test(text)) {
      return {
        argument: text,
        permit: '-f',
        why: 'reads its script from a file the command check cannot see',
      };
    }
    if (/^-[nrEsuz]*e$/.test(text) || text === '--expression') {
      explicit = true;
      if (args[index + 1]) scripts.push(args[index + 1]!);
    } else if (text.startsWith('--expression=')) {
      explicit = true;
      scripts.push({ text: text.slice('--expression='.length), dynamic: word.dynamic });
    }
  }
  if (!explicit) {
    const { operand } = scanOptions(args, ['-l', '--line-length']);
    if (operand !== -1) scripts.push(args[operand]!);
  }
  for (const script of scripts) {
    if (script.dynamic && /[$`]/.test(script.text)) {
      return {
        argument: 'a script only known when the shell runs',
        why: 'could run commands or write files',
      };
    }
    if (/(?:^|[;\n}])\s*[0-9,$/!]*\s*[ewW]\b|\/[gpIiMm0-9]*[ewW](?:\s|;|$)/.test(script.text)) {
      return { argument: 'e or w command', why: 'runs a command or writes a file' };
    }
  }
  return undefined;
}
