import type { ShellWord } from './shell-parser.ts';

/** What the command check knows of a wrapper: a program that only starts the command after its options. */
interface WrapperSpec {
  /** Options that take no value. */
  flags: readonly string[];
  /** Options whose value is the next word (or attached: `-n5`, `--signal=KILL`). */
  values: readonly string[];
  /** Operands before the command (timeout's duration). */
  leading?: number;
  /** A regular expression for further options it accepts (nice's `-5`). */
  also?: RegExp;
}

/**
 * The wrappers the check looks through, with every option it understands. An option not listed could
 * change which word is the command (`time -o FILE cmd`, `xargs --arg-file FILE cmd`), so it is refused
 * (see `argumentRules`) rather than guessed at.
 */
export const wrappers: Readonly<Record<string, WrapperSpec>> = {
  time: { flags: ['-p', '-v', '--verbose', '--portability', '-q', '--quiet'], values: ['-f', '--format'] },
  nohup: { flags: [], values: [] },
  builtin: { flags: [], values: [] },
  nice: { flags: [], values: ['-n', '--adjustment'], also: /^-\d+$/ },
  stdbuf: { flags: [], values: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  exec: { flags: ['-c', '-l'], values: ['-a'] },
  command: { flags: ['-p'], values: [] },
  timeout: {
    flags: ['--foreground', '--preserve-status', '-v', '--verbose'],
    values: ['-s', '-k', '--signal', '--kill-after'],
    leading: 1,
  },
  xargs: {
    flags: ['-0', '--null', '-r', '--no-run-if-empty', '-t', '--verbose', '-x', '--exit', '-p'],
    values: [
      '-n',
      '-I',
      '-P',
      '-L',
      '-s',
      '-d',
      '-E',
      '-a',
      '--max-args',
      '--max-procs',
      '--max-lines',
      '--max-chars',
      '--delimiter',
      '--eof',
      '--replace',
      '--arg-file',
    ],
    also: /^-[ile]/,
  },
  env: {
    flags: ['-i', '--ignore-environment', '-0', '--null', '-v', '--debug'],
    values: ['-u', '--unset', '-C', '--chdir'],
    also: /^--(?:block|default|ignore)-signal(?:=|$)/,
  },
};

/** How a wrapper's words split: the command it starts, and the first option the check does not know. */
export interface WrapperParts {
  command: ShellWord[];
  unknown?: ShellWord;
}

/** Splits a wrapper's arguments (without its name) into the command it starts and any unknown option. */
export function wrapperParts(name: string, args: ShellWord[]): WrapperParts | undefined {
  const spec = wrappers[name];
  if (spec === undefined) return undefined;
  let index = 0;
  let unknown: ShellWord | undefined;
  while (index < args.length) {
    const word = args[index]!;
    const text = word.text;
    if (text === '--') {
      index++;
      break;
    }
    if (!text.startsWith('-') || text === '-') break;
    index++;
    if (spec.values.includes(text)) index++;
    else if (spec.flags.includes(text) || spec.also?.test(text) || attachedValue(text, spec.values)) continue;
    else unknown ??= word;
  }
  return { command: args.slice(index + (spec.leading ?? 0)), ...(unknown ? { unknown } : {}) };
}

// `-n5`, `--signal=KILL`: an option that takes a value, given with its value in one word.
function attachedValue(text: string, values: readonly string[]): boolean {
  return values.some((option) =>
    option.startsWith('--') ? text.startsWith(`${option}=`) : text.startsWith(option) && text.length > 2,
  );
}
