export { type CheckCommand, checkSettingsOf, detectChecks } from './detect-checks.ts';
export {
  type CheckResult,
  type CheckSpec,
  type CommandRunner,
  repairPrompt,
  runChecks,
  runtimeCommandRunner,
} from './run-checks.ts';
export { activatedVenv } from './workspace-venv.ts';
