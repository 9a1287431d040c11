// Log lines carry text from models, repositories and requests (error messages quote them): shown on a
// terminal, a control character in them must read as text, never act (an OSC 52 clipboard write, a cursor
// move erasing earlier lines). The CLI has its own copy (packages/cli/src/render/terminal-safe.ts); a
// service does not import the CLI.

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const controls = /[\u0000-\u001f\u007f-\u009f]/g;

const hex = (char: string) => char.charCodeAt(0).toString(16).padStart(2, '0');

/**
 * One line of text safe on a terminal: every control character (newlines and tabs too: a log line stays
 * one line) shown escaped as `\xNN`.
 */
export function lineSafe(text: string): string {
  return text.replace(controls, (char) => `\\x${hex(char)}`);
}

/**
 * JSON text safe on a terminal: JSON.stringify escapes C0 controls but leaves DEL and C1 as they are, so
 * those become `\u00NN` escapes (only strings can hold them: the same value, still valid JSON).
 */
export function jsonSafe(json: string): string {
  return json.replace(/[\u007f-\u009f]/g, (char) => `\\u00${hex(char)}`);
}
