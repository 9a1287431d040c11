export type { ErrorCode, ErrorObject } from './keel-error.ts';
export { httpStatusOf, KeelError, toErrorObject } from './keel-error.ts';
export {
  AuthenticationError,
  CancelledError,
  CircuitBreakerError,
  ConfigError,
  InvalidParamsError,
  ModelError,
  PermissionDeniedError,
  SessionNotFoundError,
  ToolError,
  ToolNotFoundError,
} from './kinds.ts';
