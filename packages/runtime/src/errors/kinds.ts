import { KeelError } from './keel-error.ts';

/** Bad arguments from a caller: a request field, a tool argument, an option. */
export class InvalidParamsError extends KeelError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('INVALID_PARAMS', message, details);
    this.name = 'InvalidParamsError';
  }
}

/** A path outside the access boundary, a blocked command, a refused action. */
export class PermissionDeniedError extends KeelError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('PERMISSION_DENIED', message, details);
    this.name = 'PermissionDeniedError';
  }
}

export class ToolNotFoundError extends KeelError {
  constructor(toolName: string, available: string[] = []) {
    super('TOOL_NOT_FOUND', `Tool '${toolName}' does not exist.`, { tool: toolName, available });
    this.name = 'ToolNotFoundError';
  }
}

/** A skill name that no skill directory provides. */
export class SkillNotFoundError extends KeelError {
  constructor(name: string, available: string[] = []) {
    const hint = available.length ? ` Available: ${available.join(', ')}.` : '';
    super('SKILL_NOT_FOUND', `Skill '${name}' does not exist.${hint}`, { name, available });
    this.name = 'SkillNotFoundError';
  }
}

export class SessionNotFoundError extends KeelError {
  constructor(sessionId: string) {
    super('SESSION_NOT_FOUND', `Session '${sessionId}' does not exist.`, { session_id: sessionId });
    this.name = 'SessionNotFoundError';
  }
}

export class RunNotFoundError extends KeelError {
  constructor(runId: string) {
    super('RUN_NOT_FOUND', `Run '${runId}' does not exist.`, { run_id: runId });
    this.name = 'RunNotFoundError';
  }
}

/** A sub-agent id that the store does not know (spec section 7: 404). */
export class AgentNotFoundError extends KeelError {
  constructor(agentId: string) {
    super('AGENT_NOT_FOUND', `Sub-agent '${agentId}' does not exist.`, { agent_id: agentId });
    this.name = 'AgentNotFoundError';
  }
}

/** As many sub-agents as the limit allows are already pending or running (spec section 7: 429). */
export class AgentLimitReachedError extends KeelError {
  constructor(limit: number, active: number) {
    super(
      'AGENT_LIMIT_REACHED',
      `${active} sub-agents are pending or running and the limit is ${limit}: wait for one to finish, or kill one, then spawn again.`,
      { limit, active },
    );
    this.name = 'AgentLimitReachedError';
  }
}

/** A sub-agent could not be spawned, resumed or killed (spec section 7: AGENT_ERROR, 500). */
export class AgentError extends KeelError {
  constructor(message: string, details?: Record<string, unknown>, options?: ErrorOptions) {
    super('AGENT_ERROR', message, details, options);
    this.name = 'AgentError';
  }
}

/** An operation that does not apply to the record's current state (cancel a finished run, say). */
export class InvalidStateError extends KeelError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('INVALID_STATE', message, details);
    this.name = 'InvalidStateError';
  }
}

/** A tool ran and failed; the message is what the model sees. */
export class ToolError extends KeelError {
  constructor(message: string, details?: Record<string, unknown>, options?: ErrorOptions) {
    super('TOOL_ERROR', message, details, options);
    this.name = 'ToolError';
  }
}

/** The model endpoint refused the API key (HTTP 401/403). */
export class AuthenticationError extends KeelError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('AUTHENTICATION_FAILED', message, details);
    this.name = 'AuthenticationError';
  }
}

/** The model endpoint failed: server error, dropped connection, timeout, malformed reply. */
export class ModelError extends KeelError {
  /** True when a retry may succeed (429, 5xx, connection errors, timeouts). */
  readonly retryable: boolean;
  readonly status: number | undefined;

  constructor(
    message: string,
    options: { retryable: boolean; status?: number; cause?: unknown; details?: Record<string, unknown> },
  ) {
    const details = {
      ...options.details,
      ...(options.status === undefined ? {} : { status: options.status }),
    };
    super('MODEL_ERROR', message, Object.keys(details).length ? details : undefined, {
      cause: options.cause,
    });
    this.name = 'ModelError';
    this.retryable = options.retryable;
    this.status = options.status;
  }
}

/** The run's token, cost, step or loop limit tripped. */
export class CircuitBreakerError extends KeelError {
  constructor(message: string, details: { reason: string; tokens_used: number; cost_usd: number }) {
    super('CIRCUIT_BREAKER', message, details);
    this.name = 'CircuitBreakerError';
  }
}

/** The run was cancelled through its AbortSignal. */
export class CancelledError extends KeelError {
  constructor(message = 'The run was cancelled.') {
    super('CANCELLED', message);
    this.name = 'CancelledError';
  }
}

/** Configuration is missing or invalid; the message names the option and the environment variable. */
export class ConfigError extends KeelError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('CONFIG_ERROR', message, details);
    this.name = 'ConfigError';
  }
}

/** A checkpoint, approval, artifact, project or task id that the store does not know. */
export class RecordNotFoundError extends KeelError {
  constructor(
    code:
      | 'CHECKPOINT_NOT_FOUND'
      | 'APPROVAL_NOT_FOUND'
      | 'ARTIFACT_NOT_FOUND'
      | 'PROJECT_NOT_FOUND'
      | 'TASK_NOT_FOUND',
    what: string,
    id: string,
  ) {
    super(code, `${what} '${id}' does not exist.`, { id });
    this.name = 'RecordNotFoundError';
  }
}

/** A workflow node or a whole run ran past its time limit. */
export class TimeoutError extends KeelError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('TIMEOUT', message, details);
    this.name = 'TimeoutError';
  }
}

/** A run's step, token, cost or time budget is spent. */
export class BudgetExceededError extends KeelError {
  constructor(message: string, details: { budget: string; limit: number; used: number }) {
    super('BUDGET_EXCEEDED', message, details);
    this.name = 'BudgetExceededError';
  }
}

/** A human rejected an approval the run needed. */
export class ApprovalRejectedError extends KeelError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('APPROVAL_REJECTED', message, details);
    this.name = 'ApprovalRejectedError';
  }
}

/** The database failed or is unreachable. */
export class StoreError extends KeelError {
  constructor(message: string, details?: Record<string, unknown>, options?: ErrorOptions) {
    super('STORE_ERROR', message, details, options);
    this.name = 'StoreError';
  }
}
