/**
 * A small parser of POSIX/bash command lines, for checking commands before a shell runs them. It does not
 * evaluate anything: it finds every simple command the shell would run (also inside `$(…)`, backticks,
 * `<(…)`, subshells and here-documents) with its words after quote removal, so a policy can judge each.
 * We keep our own instead of a package: the runtime has few dependencies, and the packages we looked at
 * do not follow command substitution, which is exactly where a hidden command would be.
 */

/** A word of a simple command after quote removal. */
export interface ShellWord {
  /** The text with quotes removed; expansions (`$HOME`, `$(…)`, globs) are kept as written. */
  text: string;
  /** True when the shell decides the word's value at run time: a variable, a substitution, a glob. */
  dynamic: boolean;
}

/** A redirection such as `> out.txt` or `2>&1`. */
export interface ShellRedirect {
  operator: string;
  target: ShellWord;
}

/** One simple command: what runs between operators like `|`, `&&`, `;` and newlines. */
export interface SimpleCommand {
  words: ShellWord[];
  redirects: ShellRedirect[];
  /** Its source text, for messages. */
  text: string;
}

/** The command line cannot be parsed; `unsupported` when it is valid shell we deliberately do not check. */
export class ShellSyntaxError extends Error {
  readonly unsupported: boolean;
  constructor(message: string, unsupported = false) {
    super(message);
    this.name = 'ShellSyntaxError';
    this.unsupported = unsupported;
  }
}

/**
 * Every simple command in `source`, in source order; commands inside substitutions come before the
 * command whose word holds them. Throws ShellSyntaxError on an unterminated quote or parenthesis.
 *
 * @example
 * parseCommandLine('cd src && grep -n "a b" $(ls)').map((c) => c.words.map((w) => w.text));
 * // [['cd', 'src'], ['ls'], ['grep', '-n', 'a b', '$(ls)']]
 */
export function parseCommandLine(source: string): SimpleCommand[] {
  const parser = new Parser(source);
  parser.parseList(null);
  return parser.commands;
}

const blank = new Set([' ', '\t']);
// Characters that end an unquoted word.
const wordBreak = new Set([' ', '\t', '\n', '|', '&', ';', '(', ')', '<', '>']);
const redirectPattern = /^(?:\d*(?:>>|>&|>\||<<<|<<-|<<|<&|<>|>|<)|&>>|&>)/;
// Unquoted characters that make a word a pattern the shell expands (globs; `{` only with `,` or `..`).
const globChars = new Set(['*', '?', '[']);
// Words that are shell syntax by themselves, not patterns.
const reservedShapes = new Set(['[', '[[', '{', '}']);
const maxDepth = 50;

interface PendingHeredoc {
  delimiter: string;
  expands: boolean;
  stripTabs: boolean;
}

class Parser {
  readonly commands: SimpleCommand[] = [];
  readonly #src: string;
  #pos = 0;
  #depth = 0;
  #heredocs: PendingHeredoc[] = [];
  /** Whether the word read last had quotes or escapes (a quoted here-document delimiter means no expansion). */
  #lastWordQuoted = false;

  constructor(source: string) {
    this.#src = source;
  }

  /** Parses commands until the end, or until `closer` (`)` of a subshell or substitution), consumed. */
  parseList(closer: ')' | null): void {
    if (++this.#depth > maxDepth) throw new ShellSyntaxError('The command nests too deeply to check.');
    let command = this.#newCommand();
    const finish = () => {
      if (command.words.length > 0 || command.redirects.length > 0) {
        command.text = this.#src.slice(command.start, command.end).trim();
        this.commands.push({ words: command.words, redirects: command.redirects, text: command.text });
      }
      command = this.#newCommand();
    };
    for (;;) {
      this.#skipBlanks();
      if (this.#pos >= this.#src.length) {
        if (closer) throw new ShellSyntaxError(`Unclosed '(': a ')' is missing.`);
        finish();
        break;
      }
      const char = this.#src[this.#pos]!;
      const rest = this.#src.slice(this.#pos);
      if (char === '#') {
        this.#skipComment();
        continue;
      }
      if (char === '\n') {
        finish();
        this.#pos++;
        this.#readHeredocBodies();
        continue;
      }
      if (char === ')') {
        if (closer !== ')') throw new ShellSyntaxError(`Unmatched ')'.`);
        finish();
        this.#pos++;
        break;
      }
      if (rest.startsWith(';;')) {
        throw new ShellSyntaxError('case statements are not supported by the command check.', true);
      }
      // `&>` is a redirection (stdout and stderr), not `&` (background) then `>`.
      const operator = /^(?:&&|\|\||\|&|\||;|&(?!>))/.exec(rest)?.[0];
      if (operator) {
        finish();
        this.#pos += operator.length;
        continue;
      }
      if ((char === '<' || char === '>') && this.#src[this.#pos + 1] === '(') {
        command.mark(this.#pos);
        command.words.push(this.#readWord());
        command.mark(this.#pos);
        continue;
      }
      const redirect = redirectPattern.exec(rest)?.[0];
      if (redirect) {
        command.mark(this.#pos);
        this.#pos += redirect.length;
        this.#skipBlanks();
        if (this.#atWordBreak()) throw new ShellSyntaxError(`The redirection '${redirect}' has no target.`);
        const target = this.#readWord();
        command.redirects.push({ operator: redirect.replace(/^\d+/, ''), target });
        if (redirect.endsWith('<<') || redirect.endsWith('<<-')) {
          this.#heredocs.push({
            delimiter: target.text,
            expands: !this.#lastWordQuoted,
            stripTabs: redirect.endsWith('-'),
          });
        }
        command.mark(this.#pos);
        continue;
      }
      if (char === '(') {
        if (command.words.length > 0) {
          throw new ShellSyntaxError('Function definitions are not supported by the command check.', true);
        }
        finish();
        this.#pos++;
        this.parseList(')');
        continue;
      }
      command.mark(this.#pos);
      const word = this.#readWord();
      if (command.words.length === 0 && !word.dynamic && (word.text === 'case' || word.text === 'function')) {
        throw new ShellSyntaxError(`'${word.text}' is not supported by the command check.`, true);
      }
      command.words.push(word);
      command.mark(this.#pos);
    }
    this.#depth--;
  }

  #newCommand() {
    const command = {
      words: [] as ShellWord[],
      redirects: [] as ShellRedirect[],
      text: '',
      start: -1,
      end: -1,
      mark(at: number) {
        if (command.start < 0) command.start = at;
        command.end = at;
      },
    };
    return command;
  }

  #skipBlanks(): void {
    for (;;) {
      const char = this.#src[this.#pos];
      if (char !== undefined && blank.has(char)) this.#pos++;
      else if (char === '\\' && this.#src[this.#pos + 1] === '\n') this.#pos += 2;
      else return;
    }
  }

  #skipComment(): void {
    const end = this.#src.indexOf('\n', this.#pos);
    this.#pos = end === -1 ? this.#src.length : end;
  }

  #atWordBreak(): boolean {
    const char = this.#src[this.#pos];
    return char === undefined || wordBreak.has(char);
  }

  /** Reads one word: unquoted text, quotes, escapes and expansions, up to an unquoted break. */
  #readWord(): ShellWord {
    let text = '';
    let dynamic = false;
    let pattern = false;
    let brace = false;
    this.#lastWordQuoted = false;
    while (this.#pos < this.#src.length) {
      const char = this.#src[this.#pos]!;
      if ((char === '<' || char === '>') && this.#src[this.#pos + 1] === '(' && text === '') {
        const start = this.#pos;
        this.#pos += 2;
        this.parseList(')');
        text += this.#src.slice(start, this.#pos);
        dynamic = true;
        continue;
      }
      if (wordBreak.has(char)) break;
      if (char === '\\') {
        const next = this.#src[this.#pos + 1];
        this.#pos += 2;
        if (next !== undefined && next !== '\n') text += next;
        this.#lastWordQuoted = true;
        continue;
      }
      if (char === "'") {
        text += this.#readSingleQuoted();
        this.#lastWordQuoted = true;
        continue;
      }
      if (char === '"') {
        this.#lastWordQuoted = true;
        this.#pos++;
        const part = this.#readDoubleQuoted('"');
        text += part.text;
        dynamic ||= part.dynamic;
        continue;
      }
      if (char === '$') {
        const part = this.#readDollar();
        text += part.text;
        dynamic ||= part.dynamic;
        continue;
      }
      if (char === '`') {
        text += this.#readBackticks();
        dynamic = true;
        continue;
      }
      if (globChars.has(char)) pattern = true;
      if (char === '{') brace = true;
      text += char;
      this.#pos++;
    }
    if (brace && /\{.*(?:,|\.\.)/.test(text)) pattern = true;
    if (pattern && !reservedShapes.has(text)) dynamic = true;
    return { text, dynamic };
  }

  #readSingleQuoted(): string {
    const end = this.#src.indexOf("'", this.#pos + 1);
    if (end === -1) throw new ShellSyntaxError('Unterminated single quote.');
    const text = this.#src.slice(this.#pos + 1, end);
    this.#pos = end + 1;
    return text;
  }

  /** The inside of "…" (from after the opening quote), or of an expanding here-document (closer null). */
  #readDoubleQuoted(closer: '"' | '}' | null): ShellWord {
    let text = '';
    let dynamic = false;
    for (;;) {
      const char = this.#src[this.#pos];
      if (char === undefined) {
        if (closer === '"') throw new ShellSyntaxError('Unterminated double quote.');
        if (closer === '}') throw new ShellSyntaxError("Unterminated parameter expansion: a '}' is missing.");
        return { text, dynamic };
      }
      if (char === closer) {
        this.#pos++;
        return { text, dynamic };
      }
      if (char === '\\') {
        const next = this.#src[this.#pos + 1];
        this.#pos += 2;
        if (next === undefined) continue;
        if (next === '\n') continue;
        text += '$`"\\'.includes(next) || next === closer ? next : `\\${next}`;
        continue;
      }
      if (char === '$') {
        const part = this.#readDollar();
        text += part.text;
        dynamic ||= part.dynamic;
        continue;
      }
      if (char === '`') {
        text += this.#readBackticks();
        dynamic = true;
        continue;
      }
      if (closer === '}' && char === '"') {
        this.#pos++;
        text += this.#readDoubleQuoted('"').text;
        continue;
      }
      if (closer === '}' && char === "'") {
        text += this.#readSingleQuoted();
        continue;
      }
      text += char;
      this.#pos++;
    }
  }

  /** `$name`, `${…}`, `$(…)`, `$((…))`, `$'…'`, `$"…"`, or a lone `$`. */
  #readDollar(): ShellWord {
    const start = this.#pos;
    const next = this.#src[this.#pos + 1];
    if (next === '(' && this.#src[this.#pos + 2] === '(') {
      this.#pos += 3;
      this.#skipArithmetic();
      return { text: this.#src.slice(start, this.#pos), dynamic: true };
    }
    if (next === '(') {
      this.#pos += 2;
      this.parseList(')');
      return { text: this.#src.slice(start, this.#pos), dynamic: true };
    }
    if (next === '{') {
      this.#pos += 2;
      this.#readDoubleQuoted('}');
      return { text: this.#src.slice(start, this.#pos), dynamic: true };
    }
    if (next === "'") {
      this.#pos++;
      return { text: this.#readAnsiC(), dynamic: false };
    }
    if (next === '"') {
      this.#pos += 2;
      return this.#readDoubleQuoted('"');
    }
    const name = /^\$(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(this.#src.slice(this.#pos))?.[0];
    if (name) {
      this.#pos += name.length;
      return { text: name, dynamic: true };
    }
    this.#pos++;
    return { text: '$', dynamic: false };
  }

  /** `$'…'` with its backslash escapes; only the escapes that matter for matching are decoded. */
  #readAnsiC(): string {
    let text = '';
    this.#pos++;
    for (;;) {
      const char = this.#src[this.#pos];
      if (char === undefined) throw new ShellSyntaxError("Unterminated $'…' quote.");
      this.#pos++;
      if (char === "'") return text;
      if (char === '\\') {
        const next = this.#src[this.#pos] ?? '';
        this.#pos++;
        const escapes: Record<string, string> = { n: '\n', t: '\t', "'": "'", '\\': '\\', '"': '"' };
        // Hex, octal and unicode escapes could spell any command name: refuse rather than decode them.
        if (/[xuU0-7c]/.test(next)) {
          throw new ShellSyntaxError("Escapes such as \\x in $'…' quotes are not supported.", true);
        }
        text += escapes[next] ?? `\\${next}`;
        continue;
      }
      text += char;
    }
  }

  /** Skips `$(( … ))` arithmetic, whose command substitutions still count. */
  #skipArithmetic(): void {
    let depth = 2;
    while (depth > 0) {
      const char = this.#src[this.#pos];
      if (char === undefined) throw new ShellSyntaxError("Unterminated '$((': a '))' is missing.");
      if (char === '$' && this.#src[this.#pos + 1] === '(') {
        this.#readDollar();
        continue;
      }
      if (char === '`') {
        this.#readBackticks();
        continue;
      }
      if (char === '(') depth++;
      if (char === ')') depth--;
      this.#pos++;
    }
  }

  /** `` `…` ``: the old command substitution; its inside is a command line of its own. */
  #readBackticks(): string {
    const start = this.#pos;
    let inner = '';
    this.#pos++;
    for (;;) {
      const char = this.#src[this.#pos];
      if (char === undefined) throw new ShellSyntaxError('Unterminated backquote.');
      this.#pos++;
      if (char === '`') break;
      if (char === '\\' && '$`\\'.includes(this.#src[this.#pos] ?? '')) {
        inner += this.#src[this.#pos];
        this.#pos++;
        continue;
      }
      inner += char;
    }
    this.#parseNested(inner);
    return this.#src.slice(start, this.#pos);
  }

  #parseNested(source: string): void {
    if (this.#depth >= maxDepth) throw new ShellSyntaxError('The command nests too deeply to check.');
    const nested = new Parser(source);
    nested.#depth = this.#depth;
    nested.parseList(null);
    this.commands.push(...nested.commands);
  }

  /** After a newline: the bodies of the here-documents opened on the line before. */
  #readHeredocBodies(): void {
    for (const heredoc of this.#heredocs.splice(0)) {
      const lines: string[] = [];
      while (this.#pos < this.#src.length) {
        const end = this.#src.indexOf('\n', this.#pos);
        const line = this.#src.slice(this.#pos, end === -1 ? this.#src.length : end);
        this.#pos = end === -1 ? this.#src.length : end + 1;
        const compared = heredoc.stripTabs ? line.replace(/^\t+/, '') : line;
        if (compared === heredoc.delimiter) break;
        lines.push(line);
      }
      if (heredoc.expands) {
        const body = new Parser(lines.join('\n'));
        body.#depth = this.#depth;
        body.#readDoubleQuoted(null);
        this.commands.push(...body.commands);
      }
    }
  }
}
