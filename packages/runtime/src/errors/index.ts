export type { ErrorCode, ErrorObject } from './keel-error.ts';
export { httpStatusOf, KeelError, toErrorObject } from './keel-error.ts';
export {
  AuthenticationError,
  CancelledError,
  CircuitBreakerError,
  ConfigError,
  InvalidParamsError,
  InvalidStateError,
  ModelError,
  PermissionDeniedError,
  RunNotFoundError,
  SessionNotFoundError,
  ToolError,
  ToolNotFoundError,
} from './kinds.ts';
