import { CancelledError, CircuitBreakerError, KeelError } from '../errors/index.ts';
import type { EventBody, RunMetadata, ToolTrace, Usage } from '../events/index.ts';
import type { ChatMessage, ModelClient } from '../model/index.ts';
import type { ToolContext, ToolRegistry } from '../tools/index.ts';
import { type BreakerLimits, checkBreaker } from './circuit-breaker.ts';
import { deriveMetadata } from './metadata.ts';
import { ToolRunner } from './tool-runner.ts';

export interface AgentLoopInput {
  client: ModelClient;
  tools: ToolRegistry;
  context: ToolContext;
  /** The conversation so far, ending with the new user message; the loop does not mutate it. */
  messages: readonly ChatMessage[];
  limits: BreakerLimits;
  /** Receives each event in order; awaited, so a slow consumer slows the run instead of losing events. */
  emit(event: EventBody): Promise<void>;
  /** Receives each message the run adds to the conversation, as soon as it is complete. */
  onMessage(message: ChatMessage): void;
}

/** What a finished run returns (besides its session id). */
export interface AgentOutcome {
  output: string;
  thinking: string;
  tool_traces: ToolTrace[];
  usage: Usage;
  metadata: RunMetadata;
}

/**
 * The agent loop: ask the model, run the tools it calls, feed results back, until it answers
 * without calling a tool. Cancellation and breaker trips end it with a thrown KeelError.
 */
export async function runAgentLoop(input: AgentLoopInput): Promise<AgentOutcome> {
  const { client, tools, context, limits, emit } = input;
  const messages = [...input.messages];
  const add = (message: ChatMessage) => {
    messages.push(message);
    input.onMessage(message);
  };
  const runner = new ToolRunner(tools, context);
  const modelTools = tools.toModelTools();
  const traces: ToolTrace[] = [];
  const usage = { input_tokens: 0, output_tokens: 0 };
  let thinking = '';
  let steps = 0;

  for (;;) {
    if (context.signal.aborted) throw new CancelledError();
    const turn = await client.turn(
      messages,
      modelTools,
      {
        onText: (content) => emit({ type: 'text_delta', content }),
        onThinking: (content) => emit({ type: 'thinking', content }),
        onRetry: (notice) => emit({ type: 'retry', ...notice }),
      },
      context.signal,
    );
    usage.input_tokens += turn.usage.input_tokens;
    usage.output_tokens += turn.usage.output_tokens;
    thinking += turn.reasoning;
    add({
      role: 'assistant',
      content: turn.text,
      ...(turn.reasoning ? { reasoning: turn.reasoning } : {}),
      ...(turn.toolCalls.length ? { tool_calls: turn.toolCalls } : {}),
    });

    if (turn.toolCalls.length === 0) {
      const total = { ...usage, total_tokens: usage.input_tokens + usage.output_tokens };
      return {
        output: turn.text,
        thinking,
        tool_traces: traces,
        usage: total,
        metadata: deriveMetadata(turn.text, runner.errors),
      };
    }

    steps += turn.toolCalls.length;
    try {
      await tripIfOver(limits, { tokens: usage.input_tokens + usage.output_tokens, costUsd: 0, steps }, emit);
    } catch (error) {
      for (const call of turn.toolCalls) {
        add({
          role: 'tool',
          tool_call_id: call.id,
          content: 'Not run: the circuit breaker stopped the run.',
        });
      }
      throw error;
    }

    // Calls run one after another, in the model's order, so events and file edits are deterministic.
    for (const [index, call] of turn.toolCalls.entries()) {
      if (context.signal.aborted) {
        for (const skipped of turn.toolCalls.slice(index)) {
          add({ role: 'tool', tool_call_id: skipped.id, content: 'Cancelled before it ran.' });
        }
        throw new CancelledError();
      }
      const { args } = ToolRunner.parseArgs(call);
      await emit({ type: 'tool_call', tool_name: call.name, args, tool_call_id: call.id });
      let outcome: Awaited<ReturnType<ToolRunner['run']>>;
      try {
        outcome = await runner.run(call);
      } catch (error) {
        // Only a cancellation escapes the runner; keep the conversation well formed for the session.
        for (const skipped of turn.toolCalls.slice(index)) {
          add({ role: 'tool', tool_call_id: skipped.id, content: 'Cancelled while running.' });
        }
        throw KeelError.is(error) && error.code === 'CANCELLED' ? error : new CancelledError();
      }
      await emit({
        type: 'tool_result',
        tool_name: call.name,
        tool_call_id: call.id,
        result: outcome.result,
      });
      traces.push({ tool_name: call.name, args: outcome.args, result: outcome.result });
      add({ role: 'tool', tool_call_id: call.id, content: outcome.result });
    }
  }
}

async function tripIfOver(
  limits: BreakerLimits,
  state: { tokens: number; costUsd: number; steps: number },
  emit: (event: EventBody) => Promise<void>,
): Promise<void> {
  try {
    checkBreaker(limits, state);
  } catch (error) {
    if (error instanceof CircuitBreakerError) {
      const details = error.details as { reason: string; tokens_used: number; cost_usd: number };
      await emit({ type: 'circuit_breaker', ...details });
    }
    throw error;
  }
}
