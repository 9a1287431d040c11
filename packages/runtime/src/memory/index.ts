export type { MemoryEntry } from './memory-store.ts';
export { maxEntriesPerCategory, memoryPath, memoryPromptLines, ProjectMemory } from './memory-store.ts';
