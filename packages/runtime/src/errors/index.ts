export type { ErrorCode, ErrorObject } from './keel-error.ts';
export { httpStatusOf, KeelError, toErrorObject } from './keel-error.ts';
export {
  AgentError,
  AgentLimitReachedError,
  AgentNotFoundError,
  ApprovalRejectedError,
  AuthenticationError,
  BudgetExceededError,
  CancelledError,
  CircuitBreakerError,
  ConfigError,
  InvalidParamsError,
  InvalidStateError,
  ModelError,
  PermissionDeniedError,
  RecordNotFoundError,
  RunNotFoundError,
  SessionNotFoundError,
  SkillNotFoundError,
  StoreError,
  TimeoutError,
  ToolError,
  ToolNotFoundError,
} from './kinds.ts';
export type { StoreFault, StoreFaultReason } from './store-faults.ts';
export { storeFaultOf, toStoreError } from './store-faults.ts';
