import type { TextToolCall } from './text-tool-calls.ts';
import { scanJson } from './tool-arguments.ts';

/**
 * Tool calls written as an answer of nothing but JSON: `{"name": …, "parameters": {…}}` as Llama 3.x's
 * JSON tool template asks for (its system prompt: 'Respond in the format {"name": function name,
 * "parameters": dictionary of argument name and its value}'; vLLM's llama3_json parser reads several
 * separated by `;`), `{"name": …, "arguments": {…}}` as Qwen2.5-Coder and many fine-tunes write when no
 * parser reads their `<tool_call>` format, often in a ```` ```json ```` fence (ardanlabs/kronk#950,
 * ollama/ollama-vscode#20), or a list of them (Mistral with its `[TOOL_CALLS]` token dropped).
 *
 * A fenced JSON block is just as often part of an answer (a package.json shown to the user), so the rule is
 * narrow: the whole answer, after the thinking, is one or more such blocks or bare JSON values, with only
 * white space, `;` and Llama's `<|python_tag|>` / `<|python_start|>` / `<|python_end|>` between them, and
 * every one is a call to an offered tool with an object of arguments. Anything else is the answer's text.
 */
export type JsonAnswer =
  | { kind: 'calls'; calls: TextToolCall[] }
  /** So far it could still be calls: the text ends inside one, or between two. */
  | { kind: 'open' }
  | { kind: 'text' };

const separatorTokens = ['<|python_tag|>', '<|python_start|>', '<|python_end|>'];
const fence = '```';

/** How the answer reads: `complete` when it has ended (an unfinished block is then text). */
export function readJsonAnswer(text: string, toolNames: ReadonlySet<string>, complete: boolean): JsonAnswer {
  const open: JsonAnswer = complete ? { kind: 'text' } : { kind: 'open' };
  const calls: TextToolCall[] = [];
  for (let at = skipSeparators(text, 0); at < text.length; at = skipSeparators(text, at)) {
    const rest = text.slice(at);
    if ([...separatorTokens, fence].some((token) => token.startsWith(rest))) return open;
    const fenced = rest.startsWith(fence);
    let start = 0;
    if (fenced) {
      const lineEnd = rest.indexOf('\n');
      const info = rest
        .slice(fence.length, lineEnd < 0 ? undefined : lineEnd)
        .trim()
        .toLowerCase();
      if (lineEnd < 0) return 'json'.startsWith(info) ? open : { kind: 'text' };
      if (info !== '' && info !== 'json') return { kind: 'text' };
      start = skipSeparators(rest, lineEnd + 1);
      if (start === rest.length) return open;
    }
    if (rest[start] !== '{' && rest[start] !== '[') return { kind: 'text' };
    const end = scanJson(rest.slice(start)).end;
    if (end === undefined) return open;
    const found = callsIn(rest.slice(start, start + end), toolNames);
    if (!found) return { kind: 'text' };
    calls.push(...found);
    let next = start + end;
    if (fenced) {
      next = skipSeparators(rest, next);
      if (fence.startsWith(rest.slice(next, next + fence.length)) && next + fence.length > rest.length)
        return open;
      if (!rest.startsWith(fence, next)) return { kind: 'text' };
      next += fence.length;
    }
    at += next;
  }
  return calls.length > 0 ? { kind: 'calls', calls } : open;
}

/** Past white space, `;` and Llama's tokens around JSON calls. */
function skipSeparators(text: string, from: number): number {
  let at = from;
  for (;;) {
    while (at < text.length && /[\s;]/.test(text.charAt(at))) at++;
    const token = separatorTokens.find((candidate) => text.startsWith(candidate, at));
    if (!token) return at;
    at += token.length;
  }
}

/** The calls a JSON value holds: one call object, or a list of them; undefined unless every one is a call. */
function callsIn(json: string, toolNames: ReadonlySet<string>): TextToolCall[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  const entries = Array.isArray(value) ? value : [value];
  const calls = entries.map((entry) => callIn(entry, toolNames));
  return calls.length > 0 && calls.every((call) => call !== undefined) ? calls : undefined;
}

function callIn(entry: unknown, toolNames: ReadonlySet<string>): TextToolCall | undefined {
  if (!isObject(entry)) return undefined;
  const { name, arguments: args, parameters } = entry;
  if (typeof name !== 'string' || !toolNames.has(name)) return undefined;
  let given = args ?? parameters;
  // Some write the arguments as a JSON string, as OpenAI's wire does.
  if (typeof given === 'string') given = parseObject(given);
  return isObject(given) ? { name, arguments: JSON.stringify(given) } : undefined;
}

function parseObject(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Holds back answer text while it could still be nothing but JSON calls, so that a call is never shown as
 * the answer: text that starts otherwise passes at once, and held text is let go as soon as it cannot be
 * calls (a fence of another language, text after a block, a block that is no call). How it reads is checked
 * again only after the held text has grown by a quarter, so a long call costs linear time.
 */
export class JsonAnswerHold {
  readonly #toolNames: ReadonlySet<string>;
  readonly #enabled: boolean;
  #passing: boolean;
  #held = '';
  #nextCheck = 0;

  /** `enabled` false: every text passes at once (no tools offered, or a profile that reads no text calls). */
  constructor(toolNames: ReadonlySet<string>, enabled: boolean) {
    this.#toolNames = toolNames;
    this.#enabled = enabled && toolNames.size > 0;
    this.#passing = !this.#enabled;
  }

  /** The text to pass on now: `text`, everything held until now, or nothing yet. */
  push(text: string): string {
    if (this.#passing) return text;
    this.#held += text;
    if (this.#held.length < this.#nextCheck) return '';
    if (readJsonAnswer(this.#held, this.#toolNames, false).kind === 'text') {
      this.#passing = true;
      return this.#take();
    }
    this.#nextCheck = this.#held.length + Math.max(16, this.#held.length >> 2);
    return '';
  }

  /** At the end of the answer: its calls, if it was nothing but calls, else the text still held. */
  finish(): { calls: TextToolCall[]; text: string } {
    const held = this.#take();
    if (this.#passing || held === '') return { calls: [], text: held };
    const answer = readJsonAnswer(held, this.#toolNames, true);
    return answer.kind === 'calls' ? { calls: answer.calls, text: '' } : { calls: [], text: held };
  }

  /** The answer so far was not the answer (it was thinking): the text held, and the next text is a new start. */
  restart(): string {
    this.#passing = !this.#enabled;
    return this.#take();
  }

  #take(): string {
    const held = this.#held;
    this.#held = '';
    this.#nextCheck = 0;
    return held;
  }
}
