import type { CheckOutcome } from '@keel/protocol/workbench';

/** How a check ended, and for an environment problem what is missing. */
export interface CheckVerdict {
  outcome: CheckOutcome;
  /** What is missing, in a few words; null unless `environment`. */
  reason: string | null;
}

/** What the classification may ask about the repository the check ran in. */
export interface ClassifyContext {
  /** Whether the repository has a top-level module of this name (a file or folder of its own). */
  ownModule?: (name: string) => boolean;
}

/** How a check's run ended, as `CommandRunner.run` answers it. */
export interface CheckRun {
  exitCode: number | null;
  output: string;
  /** Set when the command was not run at all (the command policy, no sandbox): why, in a few words. */
  refused?: string;
}

// A name taken from a check's output is shown to the user: only the characters names are made of.
const name = String.raw`([\w@./+:-]{1,120})`;

/**
 * The signs of a missing command, module or script, in the words the shells, Node, Python, npm and make
 * print them. Each answers the reason, or undefined when the match is not an environment problem (a
 * relative module is a file the code names: the change's doing).
 */
const signs: ReadonlyArray<[RegExp, (found: string, context: ClassifyContext) => string | undefined]> = [
  // sh/dash: "sh: 1: vitest: not found"; bash: "bash: line 1: vitest: command not found" (a shell's own
  // words only: a test printing "user: not found" is not a missing command).
  [
    new RegExp(String.raw`(?:^|\n)\S*sh(?::\s*line \d+|:\s*\d+)?: ${name}: (?:command )?not found`),
    (found) => `command \`${found}\` not found`,
  ],
  // npx with a package that is not installed (and no network to fetch it).
  [
    /could not determine executable to run/,
    () => 'npx found no such executable: the dependencies are not installed',
  ],
  // zsh: "zsh: command not found: vitest".
  [new RegExp(`command not found: ${name}`), (found) => `command \`${found}\` not found`],
  // GNU env for a script's interpreter: "env: ‘node’: No such file or directory".
  [
    new RegExp(`env: [‘'"]?${name}[’'"]?: No such file or directory`),
    (found) => `command \`${found}\` not found`,
  ],
  // Node spawning a program that is not there: "spawn vitest ENOENT".
  [new RegExp(`spawn ${name} ENOENT`), (found) => `command \`${found}\` not found`],
  // Node: "Cannot find module 'left-pad'" (CommonJS), "Cannot find package 'x' imported from" (ESM).
  [new RegExp(`Cannot find (?:module|package) '${name}'`), nodeModule],
  // Python: "ModuleNotFoundError: No module named 'requests'", "python3: No module named pytest".
  [new RegExp(`No module named '?${name}'?`), pythonModule],
  // npm / pnpm / yarn: the check's script is not in package.json.
  [new RegExp(`Missing script: "?${name}"?`), (found) => `script \`${found}\` is not in package.json`],
  [/node_modules missing/, () => 'node_modules missing: the dependencies are not installed'],
  // make: the check's target is not in the Makefile.
  [new RegExp(`No rule to make target '${name}'`), (found) => `Makefile target \`${found}\` not found`],
];

/** A module Python could not find: one the repository has itself is the code's (a wrong name). */
function pythonModule(found: string, context: ClassifyContext): string | undefined {
  if (context.ownModule?.(found.split('.')[0] ?? found)) return undefined;
  return `Python module \`${found}\` not found`;
}

/** A module Node could not find: a package (not installed) is the environment's; a path is the code's. */
function nodeModule(found: string): string | undefined {
  if (found.startsWith('.') || found.startsWith('/') || found.startsWith('file:')) return undefined;
  return `Node module \`${found}\` not found`;
}

/**
 * Tells a check that said no (the change's doing: a repair turn may fix it) from one that could not do its
 * job: a command, module or script missing (exit 126/127, the messages above), or refused before it ran.
 */
export function classifyCheck(run: CheckRun, context: ClassifyContext = {}): CheckVerdict {
  if (run.exitCode === 0) return { outcome: 'passed', reason: null };
  if (run.refused) return { outcome: 'environment', reason: run.refused };
  for (const [pattern, reasonOf] of signs) {
    const match = pattern.exec(run.output);
    const reason = match ? reasonOf(match[1] ?? '', context) : undefined;
    if (reason) return { outcome: 'environment', reason };
  }
  if (run.exitCode === 127)
    return { outcome: 'environment', reason: 'a command was not found (exit code 127)' };
  if (run.exitCode === 126)
    return { outcome: 'environment', reason: 'a command could not be run (exit code 126)' };
  return { outcome: 'failed', reason: null };
}
