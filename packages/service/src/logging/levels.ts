/** A service log's levels, most severe first: a log at one level writes it and every level before it. */
export const logLevels = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof logLevels)[number];

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && (logLevels as readonly string[]).includes(value);
}

/** Whether a log at `threshold` writes a line of `level`. */
export function writesLevel(threshold: LogLevel, level: LogLevel): boolean {
  return logLevels.indexOf(level) <= logLevels.indexOf(threshold);
}
