import { execCommandTool } from './commands/exec-command.ts';
import { editFileTool } from './files/edit-file.ts';
import { listFileChangesTool, redoFileTool, undoFileTool } from './files/file-history-tools.ts';
import { listDirectoryTool } from './files/list-directory.ts';
import { patchTool } from './files/patch.ts';
import { readFileTool } from './files/read-file.ts';
import { writeFileTool } from './files/write-file.ts';
import { lspDefinitionTool, lspDiagnosticsTool, lspHoverTool, lspReferencesTool } from './lsp/index.ts';
import { questionTool } from './question.ts';
import { ToolRegistry } from './registry.ts';
import { saveMemoryTool } from './save-memory.ts';
import { globTool } from './search/glob.ts';
import { grepTool } from './search/grep.ts';
import { searchFilesTool } from './search/search-files.ts';
import { todoReadTool, todoWriteTool } from './todo.ts';
import { webfetchTool, websearchTool } from './web/index.ts';

/**
 * A registry with the coding tools: files (read, write, edit, patch, list, grep, glob, fuzzy file search),
 * `exec_command`, webfetch and websearch, the language-server queries (lsp_*), file history (undo, redo,
 * list changes) and `question`.
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
    webfetchTool,
    websearchTool,
    lspDiagnosticsTool,
    lspDefinitionTool,
    lspReferencesTool,
    lspHoverTool,
    undoFileTool,
    redoFileTool,
    listFileChangesTool,
    todoWriteTool,
    todoReadTool,
    saveMemoryTool,
    questionTool,
  ]);
}
