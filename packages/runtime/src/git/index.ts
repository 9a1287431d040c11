export { gitEnv } from './git-env.ts';
export { hardenedConfig } from './hardened-config.ts';
export type { CollectedRun } from './spawn-collect.ts';
export { type SpawnGitOptions, spawnGit } from './spawn-git.ts';
