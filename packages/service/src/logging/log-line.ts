import type { LogLevel } from './levels.ts';
import { jsonSafe, lineSafe } from './terminal-safe.ts';

/** What a line says besides its message: ids, counts, an error. Undefined values are left out. */
export type LogFields = Record<string, unknown>;

/** One line of the log. */
export interface LogEntry {
  time: Date;
  level: LogLevel;
  message: string;
  fields: LogFields;
}

/** Longest text value kept in a line; a model's whole answer quoted in an error is cut here. */
const maxTextLength = 2000;
// The keys of the line itself: a field of one of these names is kept as `field_<name>`.
const ownKeys = new Set(['time', 'level', 'msg']);

/** `{"time", "level", "msg", …fields}` on one line, safe on a terminal (the log file and a piped stderr). */
export function jsonLine(entry: LogEntry): string {
  const line: Record<string, unknown> = {
    time: entry.time.toISOString(),
    level: entry.level,
    msg: clip(entry.message),
  };
  for (const [key, value] of fieldsOf(entry)) line[ownKeys.has(key) ? `field_${key}` : key] = value;
  // Every value was made writable by `plain`.
  return `${jsonSafe(stringify(line) ?? '{}')}\n`;
}

const colours: Record<LogLevel, string> = { error: '31', warn: '33', info: '36', debug: '90' };
const paint = (code: string, text: string) => `\u001b[${code}m${text}\u001b[0m`;

/**
 * `12:01:02 WARN  knowledge layer failed project=prj_1 layer=structure error="…"` for a person at a
 * terminal: local time, the level (coloured unless `colour` is false), the message, then `key=value`
 * (values quoted when they hold spaces, quotes or `=`). Control characters are escaped after the values
 * are rendered, so the only escape sequences in the line are its own colours.
 */
export function prettyLine(entry: LogEntry, colour: boolean): string {
  const time = entry.time.toTimeString().slice(0, 8);
  const level = entry.level.toUpperCase().padEnd(5);
  const fields = [...fieldsOf(entry)].map(([key, value]) => `${lineSafe(key)}=${lineSafe(shown(value))}`);
  const text = [lineSafe(clip(entry.message)), ...fields].join(' ');
  if (!colour) return `${time} ${level} ${text}\n`;
  return `${paint('2', time)} ${paint(colours[entry.level], level)} ${text}\n`;
}

function* fieldsOf(entry: LogEntry): Generator<[string, unknown]> {
  for (const [key, value] of Object.entries(entry.fields)) {
    if (value !== undefined) yield [key, plain(value)];
  }
}

/** A field's value as the line keeps it: an error as its message, long text cut. */
function plain(value: unknown): unknown {
  if (value instanceof Error) return clip(value.message);
  if (typeof value === 'string') return clip(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'object' && value !== null && stringify(value) === undefined) return String(value);
  return value;
}

function shown(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return stringify(value) ?? String(value);
}

function clip(text: string): string {
  return text.length > maxTextLength
    ? `${text.slice(0, maxTextLength)}… (${text.length - maxTextLength} more characters)`
    : text;
}

/** JSON.stringify with bigints as text; undefined for what cannot be written (a cycle). */
function stringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value, (_key, each) => (typeof each === 'bigint' ? each.toString() : each));
  } catch {
    return undefined;
  }
}
