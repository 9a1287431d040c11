export type { MemoryCategory, MemoryEntry } from './memory-store.ts';
export {
  legacyMemoryPath,
  maxEntriesPerCategory,
  memoryCategories,
  memoryDir,
  memoryPromptLines,
  ProjectMemory,
} from './memory-store.ts';
