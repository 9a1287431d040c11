import type { RuntimeEvent } from '@keel/runtime';
import { retryLabel } from '../render/retry-label.ts';

export type Tone = 'info' | 'success' | 'warning' | 'error' | 'muted';

/**
 * One item of the conversation as the TUI shows it. Entries are immutable: every change makes a new
 * array, and an entry that did not change keeps its identity, so its rendered lines can be cached.
 */
export type Entry =
  /** A prompt; `duringRun` when it was sent to a run in progress (the spec's user input). */
  | { kind: 'user'; text: string; images: string[]; duringRun: boolean }
  | { kind: 'assistant'; text: string }
  | { kind: 'thinking'; text: string }
  | {
      kind: 'tool';
      callId: string;
      name: string;
      args: Record<string, unknown>;
      /** Null while the tool runs. */
      result: string | null;
    }
  | {
      kind: 'interaction';
      requestId: string;
      /** `approval` or `question`, as the event says. */
      ask: string;
      prompt: string;
      options: string[];
      /** Null while it waits for the user; then what was decided (`approved`, `answered: MIT`, …). */
      decision: string | null;
    }
  | { kind: 'notice'; tone: Tone; text: string };

export interface ApplyOptions {
  /** Show `thinking` events (dimmed); off unless thinking mode is enabled. */
  showThinking: boolean;
}

/** Adds a streamed runtime event to the transcript. */
export function applyEvent(entries: readonly Entry[], event: RuntimeEvent, options: ApplyOptions): Entry[] {
  switch (event.type) {
    case 'text_delta':
      return appendText(entries, 'assistant', event.content);
    case 'thinking':
      return options.showThinking ? appendText(entries, 'thinking', event.content) : [...entries];
    case 'tool_call':
      return [
        ...entries,
        { kind: 'tool', callId: event.tool_call_id, name: event.tool_name, args: event.args, result: null },
      ];
    case 'tool_result':
      return withToolResult(entries, event.tool_call_id, event.tool_name, event.result);
    case 'retry':
      // The spec: consumers clear buffered partial output; the attempt that failed streamed it.
      return [...withoutPartialTurn(entries), notice('warning', retryLabel(event))];
    case 'circuit_breaker':
      return [
        ...entries,
        notice(
          'error',
          `⛔ circuit breaker: ${event.reason} (${event.tokens_used} tokens, $${event.cost_usd.toFixed(4)})`,
        ),
      ];
    case 'interaction_request':
      return [
        ...entries,
        {
          kind: 'interaction',
          requestId: event.request_id,
          ask: event.kind,
          prompt: event.prompt,
          options: event.options,
          decision: null,
        },
      ];
    case 'user_input_received':
      return [...entries, { kind: 'user', text: event.content, images: [], duringRun: true }];
    case 'compact':
      return [
        ...entries,
        notice(
          'muted',
          `context compacted: ${event.original_messages} → ${event.compacted_messages} messages (~${event.estimated_tokens_saved} tokens saved)`,
        ),
      ];
    case 'prune':
      return [
        ...entries,
        notice(
          'muted',
          `context pruned: ${event.pruned_count} tool results (~${event.estimated_tokens_saved} tokens saved)`,
        ),
      ];
    case 'done':
      // A run continued from a checkpoint may have streamed its answer before: show the output then.
      return event.output && !answeredSinceLastPrompt(entries)
        ? [...entries, { kind: 'assistant', text: event.output }]
        : [...entries];
    case 'cancelled':
      return [...entries, notice('warning', 'Cancelled.')];
    case 'error':
      return [...entries, notice('error', `Error [${event.error.code}]: ${event.error.message}`)];
    default:
      return [...entries];
  }
}

/** The user's prompt, as it starts a run. */
export function withPrompt(entries: readonly Entry[], text: string, images: string[] = []): Entry[] {
  return [...entries, { kind: 'user', text, images, duringRun: false }];
}

export function withNotice(entries: readonly Entry[], tone: Tone, text: string): Entry[] {
  return [...entries, notice(tone, text)];
}

/** Records how the user answered an approval or a question. */
export function withDecision(entries: readonly Entry[], requestId: string, decision: string): Entry[] {
  return entries.map((entry) =>
    entry.kind === 'interaction' && entry.requestId === requestId ? { ...entry, decision } : entry,
  );
}

function notice(tone: Tone, text: string): Entry {
  return { kind: 'notice', tone, text };
}

/** Streamed text joins the entry it continues; anything in between starts a new one. */
function appendText(entries: readonly Entry[], kind: 'assistant' | 'thinking', chunk: string): Entry[] {
  const last = entries.at(-1);
  if (last?.kind === kind) return [...entries.slice(0, -1), { kind, text: last.text + chunk }];
  return [...entries, { kind, text: chunk }];
}

function withToolResult(entries: readonly Entry[], callId: string, name: string, result: string): Entry[] {
  const index = entries.findLastIndex((entry) => entry.kind === 'tool' && entry.callId === callId);
  if (index === -1) return [...entries, { kind: 'tool', callId, name, args: {}, result }];
  return entries.map((entry, at) => (at === index && entry.kind === 'tool' ? { ...entry, result } : entry));
}

/** Drops the text and thinking a failed model attempt streamed at the end of the transcript. */
function withoutPartialTurn(entries: readonly Entry[]): Entry[] {
  let end = entries.length;
  while (end > 0 && (entries[end - 1]!.kind === 'assistant' || entries[end - 1]!.kind === 'thinking')) end--;
  return entries.slice(0, end);
}

function answeredSinceLastPrompt(entries: readonly Entry[]): boolean {
  for (let at = entries.length - 1; at >= 0; at--) {
    const entry = entries[at]!;
    if (entry.kind === 'assistant') return true;
    if (entry.kind === 'user' && !entry.duringRun) return false;
  }
  return false;
}
