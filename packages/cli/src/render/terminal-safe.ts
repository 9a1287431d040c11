import { stripVTControlCharacters } from 'node:util';

/**
 * Every control character but the newline and the tab: C0 (ESC, BEL, BS, CR...), DEL and C1 (U+0080 to
 * U+009F: U+009B is a one-character CSI, U+009D an OSC, for terminals that take them).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

const hex = (char: string) => char.charCodeAt(0).toString(16).padStart(2, '0');

/**
 * Text from a model, a tool, a repository file or the store, made safe to print on a terminal: each control
 * character is shown escaped (`\x1b`, `\x07`, `\x9b`), never interpreted, so an OSC 52 clipboard write, a
 * title (OSC 0), a link (OSC 8) or a cursor move (`ESC[3A ESC[0J` erasing what was printed) reads as text.
 * Newlines and tabs stay; a carriage return ends a line (CRLF and a lone CR, which would let text print
 * over itself). Escaping is per character, so a sequence split across streamed chunks is escaped too.
 * The one place for it: every non-TUI output (`keel run`, `chat`, `runs show`/`watch`, approvals, the
 * trust prompt) and the TUI (`sanitize`) print foreign text through it.
 */
export function terminalSafe(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(controls, (char) => `\\x${hex(char)}`);
}

/**
 * JSON text made safe for a terminal: JSON.stringify escapes C0 controls but leaves DEL and C1 as they are,
 * so those become `\u00XX` escapes (they can only stand inside strings: the same value, still valid JSON).
 */
export function terminalSafeJson(json: string): string {
  return json.replace(/[\u007f-\u009f]/g, (char) => `\\u00${hex(char)}`);
}

/** `JSON.stringify` whose output is safe on a terminal (terminalSafeJson). */
export function stringifyForTerminal(value: unknown, space?: number): string {
  return terminalSafeJson(JSON.stringify(value, null, space) ?? 'null');
}

/**
 * Typed or pasted input (the TUI's line editor): escape sequences and control characters are dropped, not
 * shown, since they were never meant as text; newlines stay, CR/CRLF become newlines, tabs four spaces.
 */
export function stripTerminalControls(text: string): string {
  let clean = '';
  for (const char of stripVTControlCharacters(text.replace(/\r\n?/g, '\n').replace(/\t/g, '    '))) {
    const code = char.codePointAt(0)!;
    if (char === '\n' || (code >= 0x20 && code !== 0x7f && (code < 0x80 || code > 0x9f))) clean += char;
  }
  return clean;
}
