/**
 * Tool-call arguments as a JSON object's text, repaired where the repair cannot change what the model
 * meant: a code fence around them, Python-style quotes and constants (`{'path': 'a', 'all': True}`), text
 * after the object, closing brackets missing at the end of an answer that was not cut short. Anything
 * else is left as the model sent it, and the tool runner tells the model exactly what is wrong
 * (agent/tool-runner.ts: the JSON error and its position).
 */
export function repairArguments(raw: string, truncated: boolean): string {
  const text = raw.trim();
  if (text === '' || isObjectJson(text)) return raw;
  let candidate = withoutFence(text);
  if (isObjectJson(candidate)) return candidate;
  candidate = withDoubleQuotes(candidate);
  if (isObjectJson(candidate)) return candidate;
  const scan = scanJson(candidate);
  if (scan.end !== undefined) {
    const rest = candidate.slice(scan.end).trim();
    // A second object after the first is another call the model ran together: not ours to drop.
    const first = candidate.slice(0, scan.end);
    if (!/^[{[]/.test(rest) && isObjectJson(first)) return first;
  } else if (!truncated && !scan.inString && scan.open.length > 0 && /["\d}\]el]$/.test(candidate)) {
    // Closers missing at the very end of a complete answer; a cut-short one may have lost more than that.
    const closed = candidate + [...scan.open].reverse().join('');
    if (isObjectJson(closed)) return closed;
  }
  return raw;
}

/** Arguments the server sent as an object (Ollama's own API does) as the JSON text the runtime reads. */
export function argumentsText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return undefined;
}

function isObjectJson(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

function withoutFence(text: string): string {
  const fenced = /^```[\w-]*\s*\n?([\s\S]*?)\s*```$/.exec(text);
  return fenced ? fenced[1]!.trim() : text;
}

/**
 * Python literal syntax as JSON: single-quoted strings become double-quoted ones (a `"` inside is
 * escaped, `\'` unescaped), and True/False/None outside strings become true/false/null. Double-quoted
 * strings are copied as they are, so an apostrophe inside one is left alone.
 */
function withDoubleQuotes(text: string): string {
  let out = '';
  for (let at = 0; at < text.length; ) {
    const char = text[at]!;
    if (char === '"' || char === "'") {
      const { literal, next } = readString(text, at);
      out += literal;
      at = next;
      continue;
    }
    const word = /^(True|False|None)\b/.exec(text.slice(at));
    if (word && !/\w/.test(text[at - 1] ?? '')) {
      out += { True: 'true', False: 'false', None: 'null' }[word[1] as 'True' | 'False' | 'None'];
      at += word[1]!.length;
      continue;
    }
    out += char;
    at += 1;
  }
  return out;
}

/** The string literal starting at `start` as a JSON string, and where the text goes on after it. */
function readString(text: string, start: number): { literal: string; next: number } {
  const quote = text[start]!;
  let body = '';
  let at = start + 1;
  for (; at < text.length && text[at] !== quote; at++) {
    const char = text[at]!;
    if (char === '\\' && at + 1 < text.length) {
      const escaped = text[at + 1]!;
      body += quote === "'" && escaped === "'" ? "'" : char + escaped;
      at += 1;
    } else {
      body += quote === "'" && char === '"' ? '\\"' : char;
    }
  }
  // An unclosed string stays unclosed: the scan below sees it and nothing is guessed.
  return { literal: `"${body}${at < text.length ? '"' : ''}`, next: at + 1 };
}

/** Where the first JSON value ends, or the brackets still open and whether a string is when the text ends. */
export function scanJson(text: string): { end?: number; open: string[]; inString: boolean } {
  const open: string[] = [];
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!;
    if (inString) {
      if (char === '\\') at += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') open.push('}');
    else if (char === '[') open.push(']');
    else if (char === '}' || char === ']') {
      if (open.pop() !== char) return { open, inString };
      if (open.length === 0) return { end: at + 1, open, inString };
    }
  }
  return { open, inString };
}
