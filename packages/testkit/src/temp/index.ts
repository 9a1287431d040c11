export { pathWithout } from './path-without.ts';
export type { TempDir } from './temp-dir.ts';
export { createTempDir } from './temp-dir.ts';
export type { TempGitRepo, TempGitRepoOptions } from './temp-git-repo.ts';
export { createTempGitRepo } from './temp-git-repo.ts';
