// The file tools (read, write, edit, patch, list, undo/redo) and the per-run file history they record into.
export { editFileTool } from './edit-file.ts';
export type { FileChange, FileHistoryLimits } from './file-history.ts';
export { FileHistory } from './file-history.ts';
export { listFileChangesTool, redoFileTool, undoFileTool } from './file-history-tools.ts';
export { listDirectoryTool } from './list-directory.ts';
export { patchTool } from './patch.ts';
export { readFileTool } from './read-file.ts';
export { writeFileTool } from './write-file.ts';
