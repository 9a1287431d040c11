import {
  awkProgram,
  type Found,
  firstOption,
  gitGlobalRunner,
  gitParts,
  interpreterCode,
  optionsAnywhere,
  scanOptions,
  sedScript,
} from './argument-parsing.ts';
import { type Invocation, programName } from './command-invocations.ts';
import { wrapperParts, wrappers } from './command-wrappers.ts';
import type { ShellWord } from './shell-parser.ts';

/** One row of the argument table: a program, the arguments that make it run another program or write, why. */
export interface ArgumentRule {
  /** The program names the row applies to. */
  programs: readonly string[];
  /** For a git row: the subcommand (`grep`); its arguments are those after it. */
  subcommand?: string;
  /** The forms, as the runtime README lists them. */
  forms: string;
  /** What those forms do, completing "which …". */
  why: string;
  /** The offending argument, or undefined. Gets the words after the program (or the subcommand). */
  find(args: ShellWord[], name: string): Found | undefined;
}

const interpreterModes = ['-v', '-V', '--version', '-h', '--help'];
const shellNames = ['sh', 'bash', 'zsh', 'dash', 'ksh'];
const wrapperNames = Object.keys(wrappers);

/**
 * The argument table: forms of otherwise allowed programs that run another program or write files
 * through an argument. A command using one is refused (with the program, the argument and why) unless
 * the allow-list names it on purpose: the entry "<program> <option>" (e.g. "node -e", "sort -o"), or "*".
 */
export const argumentRules: readonly ArgumentRule[] = [
  {
    programs: ['rg'],
    forms: '--pre, --pre-glob, --hostname-bin',
    why: 'makes rg run another program (on every file it searches)',
    find: (args) =>
      firstOption(optionsAnywhere(args), [
        [/^--pre(?:=|$)/, '--pre'],
        [/^--pre-glob(?:=|$)/, '--pre-glob'],
        [/^--hostname-bin(?:=|$)/, '--hostname-bin'],
      ]),
  },
  {
    programs: ['git'],
    forms:
      '-c of a setting naming a program (core.pager, core.editor, core.sshCommand, core.fsmonitor, ' +
      'core.hooksPath, credential.helper, diff.external, filter.*, include.path, …), -c alias.*=!cmd, ' +
      '--config-env, --exec-path',
    why: 'makes git run another program',
    find: (args) => gitGlobalRunner(gitParts(args).global),
  },
  {
    programs: ['git'],
    subcommand: 'grep',
    forms: '-O<cmd>, --open-files-in-pager',
    why: 'makes git grep run a pager program on the files it finds',
    find: (args) => firstOption(optionsAnywhere(args), [[/^(?:-O|--open-files-in-pager(?:=|$))/, '-O']]),
  },
  {
    programs: ['sort'],
    forms: '--compress-program, -o / --output',
    why: 'makes sort run another program or write a file',
    find: (args) =>
      firstOption(optionsAnywhere(args), [
        [/^--compress-program(?:=|$)/, '--compress-program'],
        [/^(?:-[bdfghiMnRrscCmuVz]*o|--output(?:=|$))/, '-o'],
      ]),
  },
  {
    programs: ['uniq'],
    forms: 'a second operand (uniq IN OUT)',
    why: 'uniq writes its output to; use > instead, which the write check sees',
    find: (args) => {
      const operands: ShellWord[] = [];
      let rest = args;
      while (rest.length > 0) {
        const { operand } = scanOptions(rest, ['-f', '-s', '-w', '--group', '--all-repeated']);
        if (operand === -1) break;
        operands.push(rest[operand]!);
        rest = rest.slice(operand + 1);
      }
      const output = operands[1];
      return output
        ? { argument: output.text, does: () => `gives uniq a second operand (${output.text})` }
        : undefined;
    },
  },
  {
    programs: ['find'],
    forms: '-exec, -execdir, -ok, -okdir, -delete, -fprint, -fprint0, -fprintf, -fls',
    why: 'makes find run a command or delete or write files',
    find: (args) =>
      firstOption(
        args.filter((word) => /^-/.test(word.text)),
        ['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls'].map(
          (option) => [new RegExp(`^${option}$`), option] as [RegExp, string],
        ),
      ),
  },
  {
    programs: ['tar'],
    forms:
      '--to-command, --use-compress-program / -I, --checkpoint-action, --rsh-command, --info-script / -F, ' +
      '--new-volume-script',
    why: 'makes tar run another program',
    find: (args) => {
      for (const word of optionsAnywhere(args)) {
        const long = tarRunners.exec(word.text)?.[0];
        if (long) return { argument: long, permit: long };
        const short = /^-[A-Za-z]*?([IF])/.exec(word.text)?.[1];
        if (short) return { argument: `-${short}`, permit: `-${short}` };
      }
      // The old style: a first word of letters without a dash (`tar xIf zstd a.tar`).
      return args[0] && /^[A-Za-z]*[IF]/.test(args[0].text) ? { argument: args[0].text } : undefined;
    },
  },
  {
    programs: ['node', 'nodejs', 'bun', 'deno'],
    forms: '-e / --eval, -p / --print, -i, or no script file (code from its input)',
    why: "runs code written on the command line, out of the command check's sight",
    find: (args) =>
      interpreterCode(args, {
        code: /^(?:--eval|--print|--interactive|-[a-zA-Z]*[epi][a-zA-Z]*)(?:=|$)/,
        permit: '-e',
        values: nodeValues,
        modes: [...interpreterModes, '--test', '--run', '--check', '-c', '--v8-options'],
      }),
  },
  {
    programs: ['python', 'python3', 'python2', 'pypy', 'pypy3'],
    forms: '-c, or no script file / - (code from its input)',
    why: "runs code written on the command line, out of the command check's sight",
    find: (args) =>
      interpreterCode(args, {
        code: /^-[bBdEhiIOPqsSuvx]*c/,
        permit: '-c',
        values: ['-W', '-X', '--check-hash-based-pycs'],
        modes: [...interpreterModes, '-m'],
      }),
  },
  {
    programs: ['perl'],
    forms: '-e, -E (also in clusters: -ne, -pe), or no script file',
    why: "runs code written on the command line, out of the command check's sight",
    find: (args) =>
      interpreterCode(args, {
        code: /^-[lnpaswcCTtUWXv0-9]*[eE]/,
        permit: '-e',
        values: ['-I', '-M', '-m'],
        modes: interpreterModes,
      }),
  },
  {
    programs: ['ruby'],
    forms: '-e (also -ne, -pe), or no script file',
    why: "runs code written on the command line, out of the command check's sight",
    find: (args) =>
      interpreterCode(args, {
        code: /^-[lnpawsdvWc]*e/,
        permit: '-e',
        values: ['-I', '-r'],
        modes: interpreterModes,
      }),
  },
  {
    programs: shellNames,
    forms: '-c, or no script file / -s (commands from its input)',
    why: 'runs a script given on the command line',
    // Like the check that reads `sh -c` scripts: a -c anywhere counts.
    find: (args) =>
      firstOption(args, [[/^-[A-Za-z]*c[A-Za-z]*$/, '-c']]) ??
      interpreterCode(args, {
        code: /^-[A-Za-z]*s[A-Za-z]*$/,
        permit: '-c',
        values: ['-o', '+o', '-O', '+O'],
        modes: ['--version', '--help'],
      }),
  },
  {
    programs: ['less'],
    forms: '+ commands with ! or |, -k / --lesskey-file / --lesskey-src, -o / -O / --log-file',
    why: 'makes less run a shell command, load key bindings (LESSOPEN) or write a file',
    find: (args) =>
      firstOption(
        args.filter((word) => /^[-+]/.test(word.text)),
        [
          [/^\+.*[!|]/, undefined],
          [/^(?:-k|--lesskey-(?:file|src|content))/, undefined],
          [/^(?:-[oO]|--log-file|--LOG-FILE)/, undefined],
        ],
      ),
  },
  {
    programs: ['more'],
    forms: '+ commands with !',
    why: 'makes more run a shell command',
    find: (args) => firstOption(args, [[/^\+.*!/, undefined]]),
  },
  {
    programs: ['awk', 'gawk', 'mawk', 'nawk'],
    forms: 'system(), | and getline in its program, print > file, -f / -E / -i / -l program files',
    why: 'runs a command or writes a file',
    find: awkProgram,
  },
  {
    programs: ['sed'],
    forms: 'the e and w commands in its script, -i / --in-place, -f script files',
    why: 'runs a command or writes a file',
    find: sedScript,
  },
  {
    programs: ['env'],
    forms: '-C / --chdir, an option the check does not know',
    why: 'runs the command in another directory, which the write check does not follow',
    find: (args) => {
      const parts = wrapperParts('env', args)!;
      const options = args.slice(0, args.length - parts.command.length);
      return firstOption(options, [[/^(?:-C|--chdir)/, undefined]]) ?? unknownOption('env', parts.unknown);
    },
  },
  {
    programs: wrapperNames.filter((name) => name !== 'env' && name !== 'xargs'),
    forms:
      'an option the check does not know (time -o FILE, …); the command they start is checked on its own',
    why: 'could change which word is the command the check looks at',
    find: (args, name) => unknownOption(name, wrapperParts(name, args)?.unknown),
  },
  {
    programs: ['xargs'],
    forms: 'a command that has a row in this table, or a wrapper; an option the check does not know',
    why: 'hands that command arguments read from its input, which the command check cannot see',
    find: (args) => {
      const parts = wrapperParts('xargs', args)!;
      if (parts.unknown) return unknownOption('xargs', parts.unknown);
      const command = programName(parts.command[0]);
      return ruledPrograms.has(command) ? { argument: command } : undefined;
    },
  },
];

const ruledPrograms = new Set(argumentRules.flatMap((rule) => rule.programs));

const tarRunners =
  /^--(?:to-command|checkpoint-action|use-compress-program|rsh-command|info-script|new-volume-script)(?==|$)/;
const nodeValues = ['-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions'];

function unknownOption(name: string, word: ShellWord | undefined): Found | undefined {
  if (word === undefined) return undefined;
  return {
    argument: word.text,
    why: `is an option of ${name} the command check does not know, so it cannot tell which command runs`,
  };
}

/** A refused form in an invocation: the program as named in messages, what was found, why. */
export interface ArgumentHit {
  program: string;
  found: Found;
  why: string;
}

/** The first form of the table an invocation uses, looking at the wrappers it was started through too. */
export function argumentHit(invocation: Invocation): ArgumentHit | undefined {
  for (const words of [...invocation.wrappers, invocation.words]) {
    const name = programName(words[0]);
    const args = words.slice(1);
    // A wrapper's rows apply where it starts a command; alone (`env`, `command -v x`) it runs none.
    if (wrappers[name] && words === invocation.words) continue;
    for (const rule of argumentRules) {
      if (!rule.programs.includes(name)) continue;
      let program = name;
      let ruleArgs = args;
      if (rule.subcommand !== undefined) {
        const parts = gitParts(args);
        if (parts.subcommand !== rule.subcommand) continue;
        program = `${name} ${rule.subcommand}`;
        ruleArgs = parts.rest;
      }
      const found = rule.find(ruleArgs, name);
      if (found) return { program, found, why: found.why ?? rule.why };
    }
  }
  return undefined;
}
