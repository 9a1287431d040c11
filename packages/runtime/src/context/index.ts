export type { CompactOptions, CompactResult } from './compact-history.ts';
export { compactHistory, summaryMark } from './compact-history.ts';
export type { ContextBudget } from './context-budget.ts';
export {
  contextLimit,
  defaultContextThreshold,
  defaultKeepToolOutputs,
  resolveContextBudget,
} from './context-budget.ts';
export { builtInContextWindows, contextWindowOf, unknownModelContextWindow } from './context-windows.ts';
export {
  estimateMessageTokens,
  estimateTextTokens,
  estimateTokens,
  estimateToolTokens,
} from './estimate-tokens.ts';
export type { PruneResult } from './prune-tool-outputs.ts';
export { prunedMark, pruneToolOutputs } from './prune-tool-outputs.ts';
export type { HistorySplit } from './split-history.ts';
export { splitHistory } from './split-history.ts';
export { summaryInstructions, summaryRequestEnd, summaryTranscript } from './summary-prompt.ts';
