import type { RuntimeConfig } from '../config/index.ts';
import { contextWindowOf } from './context-windows.ts';

/** When a conversation is too long for its model, and how pruning treats it. */
export interface ContextBudget {
  /** The model's context window in tokens. */
  window: number;
  /** Share of the window (0..1] past which history is pruned, then compacted. */
  threshold: number;
  /** Most recent tool outputs pruning leaves intact. */
  keep_tool_outputs: number;
}

export const defaultContextThreshold = 0.8;
export const defaultKeepToolOutputs = 3;

/** The token count a conversation must stay within: the threshold's share of the window. */
export function contextLimit(budget: ContextBudget): number {
  return Math.floor(budget.window * budget.threshold);
}

/** The context budget of a run on `model` from config `context`; null when context management is off. */
export function resolveContextBudget(model: string, config: RuntimeConfig['context']): ContextBudget | null {
  if (config?.enabled === false) return null;
  return {
    window: contextWindowOf(model, config?.windows),
    threshold: config?.threshold ?? defaultContextThreshold,
    keep_tool_outputs: config?.keep_tool_outputs ?? defaultKeepToolOutputs,
  };
}
