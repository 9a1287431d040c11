export type { RuntimeEnv } from './env.ts';
export { readEnv } from './env.ts';
export { globalConfigPath, loadConfig, mergeConfig, projectConfigPath, readConfigFile } from './files.ts';
export type { ModelChoice } from './model-settings.ts';
export { resolveModelSettings } from './model-settings.ts';
export type { RuntimeConfig } from './schema.ts';
export { configSchema } from './schema.ts';
