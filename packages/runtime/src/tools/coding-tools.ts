import { editFileTool } from './edit-file.ts';
import { globTool } from './glob.ts';
import { grepTool } from './grep.ts';
import { listDirectoryTool } from './list-directory.ts';
import { questionTool } from './question.ts';
import { readFileTool } from './read-file.ts';
import { ToolRegistry } from './registry.ts';
import { searchFilesTool } from './search-files.ts';
import { writeFileTool } from './write-file.ts';

/** A registry with the file tools (read, write, edit, list, grep, glob, fuzzy file search) and `question`. */
export function createCodingTools(): ToolRegistry {
  return new ToolRegistry([
    readFileTool,
    writeFileTool,
    editFileTool,
    listDirectoryTool,
    grepTool,
    globTool,
    searchFilesTool,
    questionTool,
  ]);
}
