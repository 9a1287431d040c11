import { WorkbenchError } from '../errors.ts';
import type { RunnerKind, RunnerRequest } from './contract.ts';

/**
 * Throws INVALID_PARAMS for a request the caller built wrongly (a bug: agent failures are outcomes, never
 * exceptions), including one sent to a runner of another kind.
 */
export function assertRunnerRequest(request: RunnerRequest, kind: RunnerKind): void {
  const problems = [
    typeof request.prompt === 'string' ? undefined : 'prompt must be a string',
    typeof request.workdir === 'string' && request.workdir ? undefined : 'workdir must be a non-empty string',
    request.signal instanceof AbortSignal ? undefined : 'signal must be an AbortSignal',
    request.config?.kind === kind
      ? undefined
      : `config.kind must be '${kind}', not '${request.config?.kind}'`,
  ].filter((problem): problem is string => problem !== undefined);
  if (problems.length > 0) {
    throw new WorkbenchError('INVALID_PARAMS', `Invalid runner request: ${problems.join('; ')}.`, {
      problems,
    });
  }
}
