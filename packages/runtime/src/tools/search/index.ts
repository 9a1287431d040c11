// The search tools (glob, grep, search_files) and the walk over the workdir that honours ignore files.
export { fuzzyScore } from './fuzzy-score.ts';
export { globTool } from './glob.ts';
export type { GrepToolOptions } from './grep.ts';
export { createGrepTool, grepTool } from './grep.ts';
export { IgnoreRules, loadIgnoreRules } from './ignore-rules.ts';
export { searchFilesTool } from './search-files.ts';
export type { WalkEntry, WalkOptions } from './walk.ts';
export { walkFiles } from './walk.ts';
