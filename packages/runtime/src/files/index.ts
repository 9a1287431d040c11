export type { AtomicWriteOptions } from './atomic-write.ts';
export { writeFileAtomic } from './atomic-write.ts';
export type { ConfinedWriteOptions } from './confined-write.ts';
export { openFolderInside, unlinkConfined, writeFileConfined } from './confined-write.ts';
export type { ProtectedPath } from './protected-paths.ts';
export {
  comparableName,
  protectedEntryOf,
  protectedPaths,
  rootLevelProtectedPaths,
} from './protected-paths.ts';
