import { type ToolEdit, toolEditOf } from './tool-edit.ts';
import type { ErrorObject, LogEntry, ToolKind, Usage } from './types.ts';

/** One block of a rendered session transcript. */
export type TranscriptItem =
  | { type: 'user'; seq: number; content: string }
  | { type: 'assistant'; seq: number; content: string; streaming: boolean }
  | { type: 'thinking'; seq: number; content: string }
  | {
      type: 'tool';
      seq: number;
      id: string;
      name: string;
      kind: ToolKind;
      args: Record<string, unknown>;
      path?: string;
      /** A file edit the call makes, shown as a diff. */
      edit?: ToolEdit;
      result?: { ok: boolean; text: string };
    }
  | { type: 'step'; seq: number; step: string; status: string; detail?: string; error?: ErrorObject }
  | { type: 'error'; seq: number; error: ErrorObject }
  | { type: 'retry'; seq: number; attempt: number; max: number; error: string }
  | { type: 'meta'; seq: number; text: string }
  | { type: 'usage'; seq: number; usage: Usage };

/**
 * Folds log entries (in seq order, no duplicates) into transcript blocks: `text_delta`s grow one assistant
 * block until the turn's final `message` replaces it, consecutive thinking chunks join, a tool result lands
 * on its call, and a step's later status updates the same step.
 */
export function foldTranscript(entries: readonly LogEntry[]): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  const tools = new Map<string, Extract<TranscriptItem, { type: 'tool' }>>();
  const steps = new Map<string, Extract<TranscriptItem, { type: 'step' }>>();
  let streaming: Extract<TranscriptItem, { type: 'assistant' }> | null = null;
  for (const { seq, event } of entries) {
    const last = items.at(-1);
    switch (event.type) {
      case 'text_delta':
        if (!streaming) {
          streaming = { type: 'assistant', seq, content: '', streaming: true };
          items.push(streaming);
        }
        streaming.content += event.content;
        break;
      case 'message':
        if (event.role === 'user') {
          streaming = null;
          items.push({ type: 'user', seq, content: event.content });
        } else if (streaming) {
          streaming.content = event.content;
          streaming.streaming = false;
          streaming = null;
        } else {
          items.push({ type: 'assistant', seq, content: event.content, streaming: false });
        }
        break;
      case 'thinking':
        if (last?.type === 'thinking') last.content += event.content;
        else items.push({ type: 'thinking', seq, content: event.content });
        break;
      case 'tool_call': {
        // Text after a tool call is a new block of the same turn.
        if (streaming) streaming.streaming = false;
        streaming = null;
        const item: Extract<TranscriptItem, { type: 'tool' }> = {
          type: 'tool',
          seq,
          id: event.tool_call_id,
          name: event.tool_name,
          kind: event.kind,
          args: event.args,
          ...(event.path ? { path: event.path } : {}),
        };
        const edit = event.kind === 'file_edit' ? toolEditOf(event.tool_name, event.args) : undefined;
        if (edit) item.edit = edit;
        tools.set(event.tool_call_id, item);
        items.push(item);
        break;
      }
      case 'tool_result': {
        const call = tools.get(event.tool_call_id);
        const result = { ok: event.ok, text: event.result };
        if (call) call.result = result;
        else
          items.push({
            type: 'tool',
            seq,
            id: event.tool_call_id,
            name: event.tool_name,
            kind: event.kind,
            args: {},
            result,
          });
        break;
      }
      case 'step': {
        // A running step's later events update it; a step that ended and comes again (the checks after each
        // repair turn) is a new item of the timeline.
        const known = steps.get(event.step);
        if (known?.status === 'running') {
          known.status = event.status;
          if (event.detail) known.detail = event.detail;
          if (event.error) known.error = event.error;
        } else {
          const item: Extract<TranscriptItem, { type: 'step' }> = {
            type: 'step',
            seq,
            step: event.step,
            status: event.status,
            ...(event.detail ? { detail: event.detail } : {}),
            ...(event.error ? { error: event.error } : {}),
          };
          steps.set(event.step, item);
          items.push(item);
        }
        break;
      }
      case 'error':
        items.push({ type: 'error', seq, error: event.error });
        break;
      case 'retry':
        items.push({
          type: 'retry',
          seq,
          attempt: event.attempt,
          max: event.max_attempts,
          error: event.error,
        });
        break;
      case 'usage':
        items.push({ type: 'usage', seq, usage: event.usage });
        break;
      case 'runner_started':
        items.push({ type: 'meta', seq, text: `runner ${event.runner} started` });
        break;
    }
  }
  return items;
}

/**
 * Adds entries to a seq-ordered list, dropping any seq already there: the REST replay and the WebSocket may
 * overlap at their seam, and neither may show twice. Answers the same array when nothing was new.
 */
export function mergeEntries<T extends { seq: number }>(current: readonly T[], incoming: readonly T[]): T[] {
  const lastSeq = current.at(-1)?.seq ?? 0;
  const fresh = incoming.filter((entry) => entry.seq > lastSeq);
  if (fresh.length === 0) return current as T[];
  const bySeq = new Map<number, T>();
  for (const entry of [...current, ...fresh]) if (!bySeq.has(entry.seq)) bySeq.set(entry.seq, entry);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}
