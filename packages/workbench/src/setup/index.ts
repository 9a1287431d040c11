// A repository's setup (issue #37): found from its lockfiles, run as a step of task initialisation in the
// sandbox with the network on for that command only, or taken from the source repository's own install
// when that is an install of the same lockfile.

export {
  defaultSetupTimeoutMs,
  detectSetup,
  type SetupPart,
  type SetupSetting,
  setupSettingOf,
} from './detect-setup.ts';
export { type DependencyReuse, reuseInstalledDependencies } from './reuse-dependencies.ts';
export { type SetupCaches, setupCaches } from './setup-caches.ts';
export { runtimeSetupRunner, type SetupRunner } from './setup-runner.ts';
