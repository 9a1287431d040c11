import type { LogEntry } from './types.ts';

/**
 * The current turn of a session as its log tells it: when it began (the last message the user, or the
 * workbench on their behalf, sent, or a repair turn's step) and how many tool calls it has made since.
 */
export function turnProgress(entries: readonly LogEntry[]): { startedAt: number; toolCalls: number } | null {
  let start = -1;
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const event = entries[index]?.event;
    // A repair turn starts with the workbench's step, not a message.
    if (
      (event?.type === 'message' && event.role === 'user') ||
      (event?.type === 'step' && event.step === 'repair')
    ) {
      start = index;
      break;
    }
  }
  const first = entries[start];
  if (!first) return null;
  const toolCalls = entries.slice(start).filter((entry) => entry.event.type === 'tool_call').length;
  return { startedAt: Date.parse(first.timestamp), toolCalls };
}

/** A duration as a person reads it: "45 s", "3 min 05 s", "1 h 02 min". */
export function durationWords(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}
