import type { ApprovalNeed, BreakerLimits } from '../agent/index.ts';
import type { ContextBudget } from '../context/index.ts';
import type { ChatMessage, ModelClient, ModelPrice, ToolCall } from '../model/index.ts';
import type { ToolContext, ToolRegistry } from '../tools/index.ts';
import type { SpecialistInfo } from '../workflow/index.ts';

/**
 * Everything one execution of a run is set up with from configuration, resolved once per execution by the
 * runtime. (Not called "env": in this package "env" means environment variables, and only that.)
 */
export interface RunSetup {
  sessionId: string;
  client: ModelClient;
  tools: ToolRegistry;
  /**
   * The context every tool call of this execution runs in, for a given cancellation signal: confined to the
   * run's workdir, with one file history and one todo list for the whole execution.
   */
  toolContext(signal: AbortSignal): ToolContext;
  /** Token, cost and tool-step limits (the circuit breaker), request over config. */
  limits: BreakerLimits;
  /** The model's price, for the run's estimated cost; null when unknown (counted as free). */
  price: ModelPrice | null;
  /** Execution time limit in ms (0: none). */
  maxDurationMs: number;
  /** When an agent's conversation is pruned and compacted (config `context`); absent or null: never. */
  contextBudget?: ContextBudget | null;
  /** Seconds an approval or question waits before it expires (config `interaction_timeout`); 0 or absent: no limit. */
  interactionTimeoutSeconds?: number;
  /** The specialists agent nodes may name and task graphs route to: built-in, then configuration's. */
  specialists: readonly SpecialistInfo[];
  /** A specialist's tools (the run's, narrowed) and its role for the system prompt; undefined: none by that name. */
  specialist(name: string): { tools: ToolRegistry; role: string } | undefined;
  /**
   * Whether a tool call needs a human's approval before it runs (config `security.require_approval`, or
   * the tool's own `approvalReason`), and why; null when it can run.
   */
  needsApproval(call: ToolCall, args: Record<string, unknown>): Promise<ApprovalNeed | null>;
  systemPrompt(toolNames: readonly string[]): string;
  /** The session's conversation before this run, for the first agent turn. */
  history(): ChatMessage[];
  /** The user message an agent node starts from (the run's images go with the plain agent run). */
  userMessage(prompt: string, nodeId: string): ChatMessage;
  /** Records a message in the session (plain agent runs only; workflow runs keep theirs in checkpoints). */
  appendToSession(message: ChatMessage, nodeId: string): void;
}
