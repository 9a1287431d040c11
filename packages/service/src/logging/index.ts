export { isLogLevel, type LogLevel, logLevels } from './levels.ts';
export type { LogFields } from './log-line.ts';
export { RotatingFile, type RotatingFileOptions } from './rotating-file.ts';
export { logServerErrors } from './server-errors.ts';
export { createServiceLog, type LogStream, type ServiceLog, type ServiceLogOptions } from './service-log.ts';
