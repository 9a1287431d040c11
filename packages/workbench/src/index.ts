/**
 * @keel/workbench: the local AI development workbench service. The service itself lands next; these are
 * its runner contract and error type.
 */

export { WorkbenchError, type WorkbenchErrorObject } from './errors.ts';
export type {
  Runner,
  RunnerAvailability,
  RunnerConfig,
  RunnerEvent,
  RunnerKind,
  RunnerOutcome,
  RunnerRequest,
} from './runners/index.ts';
export { builtinRunnerConfigs, createRunnerRegistry, KeelRunner, resolveRunner } from './runners/index.ts';
