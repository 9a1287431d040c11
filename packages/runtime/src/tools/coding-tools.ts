import { editFileTool } from './edit-file.ts';
import { execCommandTool } from './exec-command.ts';
import { listFileChangesTool, redoFileTool, undoFileTool } from './file-history-tools.ts';
import { globTool } from './glob.ts';
import { grepTool } from './grep.ts';
import { listDirectoryTool } from './list-directory.ts';
import { patchTool } from './patch.ts';
import { questionTool } from './question.ts';
import { readFileTool } from './read-file.ts';
import { ToolRegistry } from './registry.ts';
import { saveMemoryTool } from './save-memory.ts';
import { searchFilesTool } from './search-files.ts';
import { todoReadTool, todoWriteTool } from './todo.ts';
import { writeFileTool } from './write-file.ts';

/**
 * A registry with the coding tools: files (read, write, edit, patch, list, grep, glob, fuzzy file search),
 * `exec_command`, file history (undo, redo, list changes) and `question`.
 */
export function createCodingTools(): ToolRegistry {
  return new ToolRegistry([
    readFileTool,
    writeFileTool,
    editFileTool,
    listDirectoryTool,
    grepTool,
    globTool,
    searchFilesTool,
    patchTool,
    execCommandTool,
    undoFileTool,
    redoFileTool,
    listFileChangesTool,
    todoWriteTool,
    todoReadTool,
    saveMemoryTool,
    questionTool,
  ]);
}
