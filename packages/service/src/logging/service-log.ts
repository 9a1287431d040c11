import { type LogLevel, writesLevel } from './levels.ts';
import { jsonLine, type LogEntry, type LogFields, prettyLine } from './log-line.ts';
import { RotatingFile } from './rotating-file.ts';

/**
 * A service's log: what it did and what failed, one line each, to stderr and to its log file. `fields`
 * are ids and short facts (`{ project, repository, layer, error }`), never request bodies, headers or keys.
 */
export interface ServiceLog {
  readonly level: LogLevel;
  /** The log file, if it has one. */
  readonly file: string | undefined;
  error(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  /** Closes the log file (a later line opens it again). */
  close(): void;
}

/** Where stderr lines go: `process.stderr`, or a test's stand-in. */
export interface LogStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface ServiceLogOptions {
  /** The least severe level written (default `info`). */
  level?: LogLevel;
  /** Also write every line there as JSON, rotated by size (its folder is made, mode 0700). */
  file?: string;
  /** Size past which the file is rotated (default 10 MiB). */
  maxFileBytes?: number;
  /** Rotated files kept, `.1` to `.N` (default 3). */
  keptFiles?: number;
  /** Default `process.stderr`: one readable line each on a terminal, else JSON lines. */
  stderr?: LogStream;
  /** Colours on a terminal (default: unless `NO_COLOR` is set to something). */
  colour?: boolean;
  /** Read for `NO_COLOR` (default `process.env`). */
  env?: Record<string, string | undefined>;
  now?: () => Date;
}

/**
 * A log to stderr and to a file. On stderr a person at a terminal reads `12:01:02 WARN  message key=value`
 * lines, and anything else (a pipe, a supervisor's journal) JSON lines, the file's format; both are safe
 * to print (control characters escaped). A file that cannot be written (a full disk) is said once on
 * stderr; the service goes on, and so do the later lines' tries.
 */
export function createServiceLog(options: ServiceLogOptions = {}): ServiceLog {
  const level = options.level ?? 'info';
  const stderr = options.stderr ?? process.stderr;
  const now = options.now ?? (() => new Date());
  const env = options.env ?? process.env;
  const pretty = stderr.isTTY === true;
  const colour = pretty && (options.colour ?? !env.NO_COLOR);
  const file = options.file
    ? new RotatingFile(options.file, {
        ...(options.maxFileBytes !== undefined ? { maxBytes: options.maxFileBytes } : {}),
        ...(options.keptFiles !== undefined ? { keep: options.keptFiles } : {}),
      })
    : undefined;
  let fileFailing = false;

  const toStderr = (entry: LogEntry, json: string) => {
    stderr.write(pretty ? prettyLine(entry, colour) : json);
  };
  const toFile = (json: string) => {
    if (!file) return;
    try {
      file.write(json);
      fileFailing = false;
    } catch (error) {
      if (fileFailing) return;
      fileFailing = true;
      const entry: LogEntry = {
        time: now(),
        level: 'warn',
        message: 'log file not written; later lines will try again',
        fields: { file: file.path, error },
      };
      toStderr(entry, jsonLine(entry));
    }
  };
  const write =
    (entryLevel: LogLevel) =>
    (message: string, fields: LogFields = {}) => {
      if (!writesLevel(level, entryLevel)) return;
      const entry: LogEntry = { time: now(), level: entryLevel, message, fields };
      const json = jsonLine(entry);
      toStderr(entry, json);
      toFile(json);
    };
  return {
    level,
    file: file?.path,
    error: write('error'),
    warn: write('warn'),
    info: write('info'),
    debug: write('debug'),
    close: () => file?.close(),
  };
}
