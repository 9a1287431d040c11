export { type CheckCommand, detectChecks } from './detect-checks.ts';
export {
  type CheckResult,
  type CheckSpec,
  type CommandRunner,
  repairPrompt,
  runChecks,
  runtimeCommandRunner,
} from './run-checks.ts';
