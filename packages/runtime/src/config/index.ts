export type { ConfigApproval, ProjectConfigApproval } from './approval.ts';
export { ConfigCache, configCache, configCacheMs } from './config-cache.ts';
export type { ConfigObject } from './config-file.ts';
export { ConfigFile, configFileAt } from './config-file.ts';
export type { PinChanges, ProjectConfigPin } from './config-pin.ts';
export { pinChanges } from './config-pin.ts';
export { sameEndpoint } from './endpoint-url.ts';
export type { RuntimeEnv } from './env.ts';
export { readEnv } from './env.ts';
export type { ConfigReport } from './files.ts';
export {
  globalConfigPath,
  loadConfig,
  loadConfigReport,
  mergeConfig,
  projectConfigPath,
  readConfigFile,
} from './files.ts';
export { hiddenValue, hideSecrets } from './hide-secrets.ts';
export type { ModelChoice } from './model-settings.ts';
export { resolveModelSettings } from './model-settings.ts';
export type { IgnoredConfigKey, ProjectTrust } from './project-trust.ts';
export { canonicalPath, isInside, markChanges } from './project-trust.ts';
export type { RuntimeConfig } from './schema.ts';
export { configSchema } from './schema.ts';
export type { TrustApplies, TrustKey, TrustKind } from './trust-keys.ts';
export { projectTrustKeys } from './trust-keys.ts';
export { approvedProjectConfigs, trustedFolders, trustFolder, untrustFolder } from './trust-list.ts';
