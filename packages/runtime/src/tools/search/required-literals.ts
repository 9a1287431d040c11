/**
 * Literal strings of which every match of a JavaScript regular expression contains at least one: e.g.
 * `function\s+(foo|bar)Error` gives `['Error']`, `(get|set)User` gives `['get', 'set']`. Returns undefined
 * when no such set is found (`\d+`, `.*`). The grep tool lets ripgrep rule out files by these fixed strings,
 * then matches the files left with the regular expression itself, so a wrong answer here would lose matches:
 * anything not understood for certain (classes, escapes other than punctuation, modifiers, lookarounds,
 * surrogates) ends a literal rather than being guessed at.
 *
 * `source` is the pattern as `new RegExp(source)` compiles it (no `u` or `v` flag), already known to be valid.
 */
export function requiredLiterals(source: string): string[] | undefined {
  const parser = new Parser(source);
  const required = parser.alternation();
  // A stray `)` means the pattern was not read as the engine reads it: give no answer.
  return parser.at === source.length ? required : undefined;
}

/** Quantifier bounds: `*` is {0}, `+` is {1}, `?` is {0}, `{2,5}` is {2}; none is {1, exact}. */
interface Quantifier {
  min: number;
  exact: boolean;
}

const punctuation = new Set([
  '\\',
  '/',
  '.',
  '*',
  '+',
  '?',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '|',
  '^',
  '$',
  '-',
]);

class Parser {
  readonly #source: string;
  at = 0;

  constructor(source: string) {
    this.#source = source;
  }

  /** `a|b|c` up to an unmatched `)` or the end: every alternative must bring its own literals. */
  alternation(): string[] | undefined {
    const all: string[] = [];
    let complete = true;
    for (;;) {
      const one = this.#sequence();
      if (one) all.push(...one);
      else complete = false;
      if (this.#source[this.at] !== '|') break;
      this.at++;
    }
    return complete ? [...new Set(all)] : undefined;
  }

  /** One alternative: the best of its runs of mandatory literal characters and its groups' literal sets. */
  #sequence(): string[] | undefined {
    let best: string[] | undefined;
    let run = '';
    const endRun = () => {
      if (run !== '') best = better(best, [run]);
      run = '';
    };
    const source = this.#source;
    while (this.at < source.length) {
      const char = source[this.at]!;
      if (char === '|' || char === ')') break;
      if (char === '^' || char === '$') {
        // Zero-width: the characters either side are still adjacent in the text.
        this.at++;
        continue;
      }
      if (char === '(') {
        endRun();
        const inner = this.#group();
        const quantifier = this.#quantifier();
        if (inner && quantifier.min >= 1) best = better(best, inner);
        continue;
      }
      const literal = this.#atom();
      const quantifier = this.#quantifier();
      if (literal === undefined || quantifier.min === 0) {
        endRun();
        continue;
      }
      run += literal;
      if (!quantifier.exact) endRun();
    }
    endRun();
    return best;
  }

  /** The literal character an atom stands for, or undefined for anything else (classes, `.`, `\d`, …). */
  #atom(): string | undefined {
    const source = this.#source;
    const char = source[this.at]!;
    if (char === '[') {
      this.#skipClass();
      return undefined;
    }
    if (char === '\\') {
      const next = source[this.at + 1];
      this.at += 2;
      if (next === undefined) return undefined;
      if (next === 'b' || next === 'B') return ''; // zero-width, like ^ and $
      if (punctuation.has(next) || next === ' ') return next;
      // The rest of an escape that spans more characters: its digits must not pass for literals.
      if (/[0-9]/.test(next))
        this.#skip(/^[0-9]+/); // a back-reference or an Annex B octal escape
      else if (next === 'x') this.#skip(/^[0-9A-Fa-f]{2}/);
      else if (next === 'u') this.#skip(/^[0-9A-Fa-f]{4}/);
      else if (next === 'c') this.#skip(/^[A-Za-z]/);
      else if (next === 'k') this.#skip(/^<[^>]*>/);
      return undefined;
    }
    this.at++;
    // `.`, a brace or bracket Annex B reads as a literal, and characters a fixed-string search cannot carry.
    if (char === '.' || char === '{' || char === '}' || char === ']') return undefined;
    if (char === '\n' || char === '\r' || char === '\0' || char === '\uFFFD') return undefined;
    if (char >= '\uD800' && char <= '\uDFFF') return undefined;
    return char;
  }

  /** A group from its `(` past its `)`: the literals of its alternatives, or undefined when it has none. */
  #group(): string[] | undefined {
    const source = this.#source;
    this.at++;
    let plain = true;
    if (source[this.at] === '?') {
      const rest = source.slice(this.at + 1);
      const named = /^<[A-Za-z_$][\w$]*>/.exec(rest);
      if (rest.startsWith(':')) this.at += 2;
      else if (named) this.at += 1 + named[0].length;
      else {
        // Lookarounds consume nothing; `(?i:…)` modifiers change what the letters inside match.
        plain = false;
        const head = /^(<=|<!|=|!|[a-z-]*:)/.exec(rest);
        this.at += 1 + (head?.[0].length ?? 0);
      }
    }
    const inner = this.alternation();
    if (source[this.at] === ')') this.at++;
    return plain ? inner : undefined;
  }

  #quantifier(): Quantifier {
    const source = this.#source;
    const char = source[this.at];
    let quantifier: Quantifier = { min: 1, exact: true };
    if (char === '*' || char === '?') quantifier = { min: 0, exact: false };
    else if (char === '+') quantifier = { min: 1, exact: false };
    else if (char === '{') {
      const bounds = /^\{(\d+)(,\d*)?\}/.exec(source.slice(this.at));
      if (!bounds) return quantifier; // Annex B: a brace that is no quantifier is a literal
      this.at += bounds[0].length - 1;
      quantifier = { min: Number(bounds[1]), exact: false };
    } else return quantifier;
    this.at++;
    if (source[this.at] === '?') this.at++; // lazy
    return quantifier;
  }

  /** Past what `pattern` matches right here, if it does. */
  #skip(pattern: RegExp): void {
    this.at += pattern.exec(this.#source.slice(this.at))?.[0].length ?? 0;
  }

  /** Past a character class: `]` right after `[` or `[^` ends it (`[]`, `[^]`), as JavaScript reads it. */
  #skipClass(): void {
    const source = this.#source;
    this.at++;
    if (source[this.at] === '^') this.at++;
    while (this.at < source.length && source[this.at] !== ']') {
      this.at += source[this.at] === '\\' ? 2 : 1;
    }
    this.at++;
  }
}

/** The more selective of two literal sets: the one whose shortest string is longer, then the smaller set. */
function better(current: string[] | undefined, candidate: string[]): string[] {
  if (!current) return candidate;
  const shortest = (set: string[]) => Math.min(...set.map((text) => text.length));
  if (shortest(candidate) !== shortest(current))
    return shortest(candidate) > shortest(current) ? candidate : current;
  return candidate.length < current.length ? candidate : current;
}
