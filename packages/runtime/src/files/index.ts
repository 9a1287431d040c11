export type { AtomicWriteOptions } from './atomic-write.ts';
export { writeFileAtomic } from './atomic-write.ts';
