import { ConfigError, InvalidParamsError, PermissionDeniedError } from '../../errors/index.ts';
import { argumentHit } from './command-arguments.ts';
import { minimalCommandEnvironment } from './command-env.ts';
import { type Invocation, invocationsOf, programName } from './command-invocations.ts';
import { dangerOf, isForkBomb } from './dangerous-commands.ts';
import { defaultAllowedCommands } from './default-allowed-commands.ts';
import { parseCommandLine, ShellSyntaxError } from './shell-parser.ts';

/** Options of `createCommandPolicy`, straight from configuration `security`. */
export interface CommandPolicyOptions {
  /**
   * `security.allowed_commands`: every program a command runs must match one entry. An entry allows the
   * commands whose words start with its words (`git status` allows `git status -s`); `*` allows anything;
   * `@default` stands for the default list. Unset: `defaultAllowedCommands`.
   */
  allowedCommands?: readonly string[] | undefined;
  /** `security.blocked_commands`: entries refused on top of the built-in block list, matched the same way. */
  blockedCommands?: readonly string[] | undefined;
  /**
   * `security.env_allow`: variables of the runtime's environment that commands get on top of the default
   * minimal set (names, or prefixes ending in `*`). See `commandEnvironment`.
   */
  envAllow?: readonly string[] | undefined;
}

/** What the policy says about a command: allowed, or refused with the offending part and why. */
export type CommandVerdict = { allowed: true } | { allowed: false; segment: string; reason: string };

// Variables that change which program an allowed command really runs (or what it loads).
const hijackingVariable =
  /^(?:PATH|LD_[A-Z_]+|DYLD_[A-Z_]+|BASH_ENV|ENV|IFS|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|PAGER|EDITOR|VISUAL|GIT_[A-Z_]+|LESS|LESSOPEN|LESSCLOSE|LESSKEY[A-Z_]*|NODE_OPTIONS|PERL5OPT|RUBYOPT)\+?=/;
const shownEntries = 40;

/**
 * Decides which shell commands `exec_command` may run. A command line is split into the programs it
 * runs (pipes, `&&`, `;`, subshells, `$(…)`, backticks, `sh -c`, `find -exec`, …) and each must pass:
 * the built-in block list, `blocked_commands`, then the allow-list.
 *
 * @example
 * const policy = createCommandPolicy({ allowedCommands: ['@default', 'docker compose'] });
 * policy.check('npm test | tail -5'); // { allowed: true }
 * policy.check('ls; rm -rf /');      // { allowed: false, segment: 'rm -rf /', reason: 'recursively deletes /' }
 */
export class CommandPolicy {
  /** True when `*` is on the allow-list: only the block lists apply. */
  readonly allowsAll: boolean;
  /** The allow-list entries, `@default` expanded. */
  readonly allowed: readonly string[];
  readonly blocked: readonly string[];
  /** `security.env_allow`: variables commands get on top of the minimal environment. */
  readonly envAllow: readonly string[];
  readonly #allowed: readonly string[][];
  readonly #blocked: readonly string[][];

  constructor(options: CommandPolicyOptions = {}) {
    const allowed = (options.allowedCommands ?? ['@default']).flatMap((entry) =>
      entry.trim() === '@default' ? defaultAllowedCommands : [entry],
    );
    this.allowed = [...new Set(allowed)];
    this.blocked = [...(options.blockedCommands ?? [])];
    this.envAllow = [...(options.envAllow ?? [])];
    this.allowsAll = this.allowed.some((entry) => entry.trim() === '*');
    this.#allowed = this.allowed
      .filter((entry) => entry.trim() !== '*')
      .map((entry) => entryWords(entry, 'security.allowed_commands'));
    this.#blocked = this.blocked.map((entry) => entryWords(entry, 'security.blocked_commands'));
  }

  /** Judges a command line. Throws InvalidParamsError when it is empty or not valid shell syntax. */
  check(command: string): CommandVerdict {
    if (command.trim() === '')
      throw new InvalidParamsError('The command is empty: give a shell command to run.');
    if (isForkBomb(command)) return { allowed: false, segment: command.trim(), reason: 'is a fork bomb' };
    let invocations: Invocation[];
    try {
      invocations = invocationsOf(command);
    } catch (error) {
      if (!(error instanceof ShellSyntaxError)) throw error;
      if (error.unsupported) return { allowed: false, segment: command.trim(), reason: error.message };
      throw new InvalidParamsError(`The command is not valid shell syntax: ${error.message}`, { command });
    }
    for (const invocation of invocations) {
      const reason = this.#refusal(invocation);
      if (reason !== undefined) return { allowed: false, segment: invocation.text, reason };
    }
    return { allowed: true };
  }

  /** Throws PermissionDeniedError naming the refused part and why, with what is allowed. */
  assertAllowed(command: string): void {
    const verdict = this.check(command);
    if (verdict.allowed) return;
    const shown = this.allowed.slice(0, shownEntries).join(', ');
    const more = this.allowed.length > shownEntries ? `, … (${this.allowed.length} entries)` : '';
    const advice = verdict.reason.startsWith('is not on the allow-list')
      ? ` Allowed commands: ${shown || 'none'}${more}. Use another way, or ask the user to add it to ` +
        'security.allowed_commands in .runtime/config.json.'
      : ' Do not try to get around this; use another way or ask the user.';
    throw new PermissionDeniedError(`Command refused: "${verdict.segment}" ${verdict.reason}.${advice}`, {
      command,
      segment: verdict.segment,
      reason: verdict.reason,
    });
  }

  #refusal(invocation: Invocation): string | undefined {
    const { words } = invocation;
    const program = words[0];
    if (program?.dynamic) {
      return `runs a program whose name (${program.text}) is only known when the shell runs it; write the program name out`;
    }
    const danger = dangerOf(invocation);
    if (danger !== undefined) return `${danger}, which the built-in block list refuses`;
    const blocked = this.#blocked.find((entry) => matchesBlocked(entry, invocation));
    if (blocked) return `matches "${blocked.join(' ')}" in security.blocked_commands`;
    if (this.allowsAll) return undefined;
    const hijack = invocation.assignments.find((text) => hijackingVariable.test(text));
    if (hijack) {
      return `sets ${hijack.split('=')[0]}, which changes what an allowed command runs; only an allow-list with "*" permits that`;
    }
    if (words.length === 0) return undefined;
    if (!this.#allowed.some((entry) => matchesAllowed(entry, invocation))) {
      return 'is not on the allow-list (security.allowed_commands)';
    }
    // An allowed program may still run another program, or write, through an argument (the argument table).
    const hit = argumentHit(invocation);
    if (hit === undefined) return undefined;
    const permit = hit.found.permit === undefined ? undefined : `${hit.program} ${hit.found.permit}`;
    if (permit !== undefined && this.allowed.some((entry) => entry.trim().replace(/\s+/g, ' ') === permit)) {
      return undefined;
    }
    const how =
      permit === undefined
        ? 'only an allow-list with "*" permits that'
        : `to allow it on purpose, the user adds "${permit}" to security.allowed_commands (or "*")`;
    const does = hit.found.does?.(hit.program) ?? `uses ${hit.program}'s ${hit.found.argument}`;
    return `${does}, which ${hit.why}; ${how}`;
  }

  /** The environment of a command: the default minimal set plus `security.env_allow`. */
  environment(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
    return minimalCommandEnvironment(base, this.envAllow);
  }
}

/** Builds the policy for a run or a `POST /tool` call from configuration `security`. */
export function createCommandPolicy(options: CommandPolicyOptions = {}): CommandPolicy {
  return new CommandPolicy(options);
}

/** The words of an entry; a trailing ` *` means the same as none (`npm run *` = `npm run`). */
function entryWords(entry: string, option: string): string[] {
  const text = entry.trim().replace(/\s+\*$/, '');
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(text);
  } catch (error) {
    throw new ConfigError(`Invalid entry "${entry}" in ${option}: ${(error as Error).message}`, {
      option,
      entry,
    });
  }
  const words = parsed[0]?.words ?? [];
  if (parsed.length !== 1 || parsed[0]!.redirects.length > 0 || words.some((word) => word.dynamic)) {
    throw new ConfigError(
      `Invalid entry "${entry}" in ${option}: give a program and its leading arguments, like "git status", or "*".`,
      { option, entry },
    );
  }
  return words.map((word) => word.text);
}

// Allowing is exact: the program word must be written as in the entry (`ls` does not allow `./ls`).
function matchesAllowed(entry: string[], { words }: Invocation): boolean {
  return (
    words.length >= entry.length &&
    entry.every((text, index) => !words[index]!.dynamic && words[index]!.text === text)
  );
}

// Blocking is generous: `/usr/bin/curl` matches `curl`, and a word only known at run time may match anything.
function matchesBlocked(entry: string[], { words }: Invocation): boolean {
  if (words.length < entry.length || words.length === 0) return false;
  return entry.every((text, index) => {
    const word = words[index]!;
    if (index === 0) return word.text === text || programName(word) === text;
    return word.dynamic || word.text === text;
  });
}
