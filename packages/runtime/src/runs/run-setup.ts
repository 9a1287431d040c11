import type { BreakerLimits } from '../agent/index.ts';
import type { ChatMessage, ModelClient, ModelPrice, ToolCall } from '../model/index.ts';
import type { Sandbox } from '../sandbox/index.ts';
import type { CommandPolicy, PathGuard, ToolRegistry } from '../tools/index.ts';

/** Everything a run needs from configuration, resolved once per execution by the runtime. */
export interface RunEnvironment {
  sessionId: string;
  workdir: string;
  client: ModelClient;
  tools: ToolRegistry;
  guard: PathGuard;
  /** Which commands exec_command may run (config `security.allowed_commands` / `blocked_commands`). */
  commands: CommandPolicy;
  /** The sandbox commands run in (config `sandbox`); undefined when it is off. */
  sandbox: Sandbox | undefined;
  /** Token, cost and tool-step limits (the circuit breaker), request over workflow over config. */
  limits: BreakerLimits;
  /** The model's price, for the run's estimated cost; null when unknown (counted as free). */
  price: ModelPrice | null;
  /** Execution time limit in ms (0: none). */
  maxDurationMs: number;
  /** Tool calls that need a human's approval before they run (config `security.require_approval`). */
  needsApproval(call: ToolCall): boolean;
  systemPrompt(toolNames: readonly string[]): string;
  /** The session's conversation before this run, for the first agent turn. */
  history(): ChatMessage[];
  /** The user message an agent node starts from (the run's images go with the plain agent run). */
  userMessage(prompt: string, nodeId: string): ChatMessage;
  /** Records a message in the session (plain agent runs only; workflow runs keep theirs in checkpoints). */
  appendToSession(message: ChatMessage, nodeId: string): void;
}
