import { KeelError } from '../errors/index.ts';
import type { ToolCall } from '../model/index.ts';
import type { ToolContext, ToolRegistry } from '../tools/index.ts';

/** What one tool call came to, as the model and the trace see it. */
export interface ToolOutcome {
  args: Record<string, unknown>;
  result: string;
  ok: boolean;
}

/**
 * Runs the model's tool calls. A failure goes back to the model as text, and it may retry with
 * corrected arguments; after `maxAttempts` failures in a row (one try and two retries by default)
 * the tool is closed for the rest of the run, so a broken tool cannot loop forever.
 */
export class ToolRunner {
  readonly #registry: ToolRegistry;
  readonly #context: ToolContext;
  readonly #maxAttempts: number;
  /** Failures in a row per tool; a plain object so it can be checkpointed and restored. */
  readonly #failures: Record<string, number>;
  /** Errors met on the way, for the run's metadata. */
  readonly errors: string[];

  constructor(
    registry: ToolRegistry,
    context: ToolContext,
    options: { maxAttempts?: number; failures?: Record<string, number>; errors?: string[] } = {},
  ) {
    this.#registry = registry;
    this.#context = context;
    this.#maxAttempts = options.maxAttempts ?? 3;
    this.#failures = options.failures ?? {};
    this.errors = options.errors ?? [];
  }

  /** Parses the call's arguments, leniently: a model's malformed JSON becomes a tool failure. */
  static parseArgs(call: ToolCall): { args: Record<string, unknown>; problem?: string } {
    const text = call.arguments.trim();
    if (text === '') return { args: {} };
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        return { args: value as Record<string, unknown> };
      }
      return { args: { _raw: call.arguments }, problem: 'the arguments must be a JSON object' };
    } catch (error) {
      return {
        args: { _raw: call.arguments },
        problem: `the arguments are not valid JSON (${(error as Error).message})`,
      };
    }
  }

  async run(call: ToolCall): Promise<ToolOutcome> {
    const { args, problem } = ToolRunner.parseArgs(call);
    const failures = this.#failures[call.name] ?? 0;
    if (failures >= this.#maxAttempts) {
      return {
        args,
        ok: false,
        result: `Error: tool '${call.name}' failed ${failures} times in a row and is closed for this run. Continue without it.`,
      };
    }
    try {
      if (problem) throw new KeelError('INVALID_PARAMS', `Invalid arguments for ${call.name}: ${problem}.`);
      // The call's id goes with it: MCP servers get it in `_meta` (ToolContext.toolCallId).
      const result = await this.#registry.execute(call.name, args, { ...this.#context, toolCallId: call.id });
      delete this.#failures[call.name];
      return { args, result, ok: true };
    } catch (error) {
      if (this.#context.signal.aborted) throw error;
      return { args, ok: false, result: this.#failureText(call.name, error, failures + 1) };
    }
  }

  #failureText(name: string, error: unknown, failures: number): string {
    this.#failures[name] = failures;
    const message = error instanceof Error ? error.message : String(error);
    this.errors.push(`${name}: ${message}`);
    const left = this.#maxAttempts - failures;
    const hint =
      left > 0
        ? `You may correct the arguments and retry (${left} ${left === 1 ? 'retry' : 'retries'} left).`
        : `This tool has now failed ${failures} times in a row and is closed for this run. Continue without it.`;
    return `Error: ${message}\n${hint}`;
  }
}
