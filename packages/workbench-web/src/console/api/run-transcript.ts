import { toolKindOfRuntimeTool } from '@keel/protocol/workbench/names';
import type { RunEventEntry } from '@keel/web-client';
import { toolEditOf } from '../../api/tool-edit.ts';
import type { TranscriptItem } from '../../api/transcript.ts';
import type { ToolKind, Usage } from '../../api/types.ts';

/** A question or approval the run asked for, answered in place (it is an approval's id). */
export type AskItem = {
  type: 'ask';
  seq: number;
  requestId: string;
  kind: string;
  prompt: string;
  options: string[];
};
/** The run's end: tokens and the agent's own summary. */
export type DoneItem = {
  type: 'done';
  seq: number;
  usage: Usage;
  summary?: string;
  nextSteps: string[];
};
/**
 * A sub-agent the run spawned (`agent_spawned`) or that ended while the run lived (`agent_finished`), with
 * its child run to open. A finished block repeats the type and task its spawn announced.
 */
export type AgentItem = {
  type: 'agent';
  seq: number;
  event: 'spawned' | 'finished';
  agentId: string;
  runId: string;
  agentType?: string;
  task?: string;
  /** How it ended (`completed`, `failed`, `killed`, `timeout`); only when finished. */
  status?: string;
  error?: string | null;
};
/** A block of a run's transcript: the kit's blocks (text, thinking, tools, errors…) and the console's own. */
export type RunItem = TranscriptItem | AskItem | DoneItem | AgentItem;

/** The transcript's kind of each tool the server lists (`GET /console/info`'s `tools`), by name. */
export type ToolCatalogue = ReadonlyMap<string, ToolKind>;

/**
 * The catalogue of the tools `/console/info` lists, each shown as its trait kind says by the protocol's one
 * table (shared with the workbench's Keel runner); a kind this console does not know is 'other'.
 */
export function toolCatalogue(tools: readonly { name: string; kind: string }[] = []): ToolCatalogue {
  return new Map(tools.map(({ name, kind }) => [name, toolKindOfRuntimeTool(name, kind)]));
}

/** What a runtime tool does: its kind in the server's catalogue, else by name (the MCP meta tools, added per run). */
export function toolKindOf(toolName: string, catalogue: ToolCatalogue): ToolKind {
  return catalogue.get(toolName) ?? toolKindOfRuntimeTool(toolName, undefined);
}

// How the runtime words a tool result the tool did not produce: a failure, or a call the user rejected.
const failedResult = /^(Error: |Not run: )/;

/**
 * Folds a run's events (seq order, no duplicates) into transcript blocks: `text_delta`s grow one text block
 * until something else happens (a `retry` drops the partial text, as the spec asks), thinking chunks join,
 * a tool result lands on its call (an edit carries its diff), an `interaction_request` becomes an ask
 * answered in place, a sub-agent's spawn and end are blocks linking to its run, and `done` closes the run
 * with its usage and summary. A tool call's kind comes from `catalogue`, the server's. Unless `live`
 * (the run goes on), the last text block is complete too.
 */
export function foldRunEvents(
  records: readonly RunEventEntry[],
  catalogue: ToolCatalogue,
  live = true,
): RunItem[] {
  const items: RunItem[] = [];
  const tools = new Map<string, Extract<TranscriptItem, { type: 'tool' }>>();
  const spawns = new Map<string, AgentItem>();
  let streaming: Extract<TranscriptItem, { type: 'assistant' }> | null = null;
  let breakerTripped = false;
  const settle = () => {
    if (streaming) streaming.streaming = false;
    streaming = null;
  };
  for (const { seq, event } of records) {
    if (event.type !== 'text_delta') settle();
    const last = items.at(-1);
    switch (event.type) {
      case 'text_delta':
        if (!streaming) {
          streaming = { type: 'assistant', seq, content: '', streaming: true };
          items.push(streaming);
        }
        streaming.content += event.content;
        break;
      case 'thinking':
        if (last?.type === 'thinking') last.content += event.content;
        else items.push({ type: 'thinking', seq, content: event.content });
        break;
      case 'tool_call': {
        // The question tool is its ask block, answered in place.
        if (event.tool_name === 'question') break;
        const kind = toolKindOf(event.tool_name, catalogue);
        const path = typeof event.args.path === 'string' ? event.args.path : undefined;
        const edit = kind === 'file_edit' ? toolEditOf(event.tool_name, event.args) : undefined;
        const item: Extract<TranscriptItem, { type: 'tool' }> = {
          type: 'tool',
          seq,
          id: event.tool_call_id,
          name: event.tool_name,
          kind,
          args: event.args,
          ...(path ? { path } : {}),
          ...(edit ? { edit } : {}),
        };
        tools.set(event.tool_call_id, item);
        items.push(item);
        break;
      }
      case 'tool_result': {
        if (event.tool_name === 'question') break;
        const result = { ok: !failedResult.test(event.result), text: event.result };
        const call = tools.get(event.tool_call_id);
        if (call) call.result = result;
        else {
          const kind = toolKindOf(event.tool_name, catalogue);
          items.push({
            type: 'tool',
            seq,
            id: event.tool_call_id,
            name: event.tool_name,
            kind,
            args: {},
            result,
          });
        }
        break;
      }
      case 'interaction_request':
        items.push({
          type: 'ask',
          seq,
          requestId: event.request_id,
          kind: event.kind,
          prompt: event.prompt,
          options: event.options,
        });
        break;
      case 'user_input_received':
        items.push({ type: 'user', seq, content: event.content });
        break;
      case 'retry': {
        // The model call is tried again: what it had streamed of this turn is void.
        const partial = items.findLastIndex((item) => item.type === 'assistant');
        if (partial >= 0 && partial === items.length - 1) items.splice(partial, 1);
        items.push({
          type: 'retry',
          seq,
          attempt: event.attempt,
          max: event.max_attempts,
          error: event.error,
        });
        break;
      }
      case 'circuit_breaker':
        breakerTripped = true;
        items.push({
          type: 'error',
          seq,
          error: {
            code: 'CIRCUIT_BREAKER',
            message: `${event.reason} (${event.tokens_used.toLocaleString()} tokens, $${event.cost_usd.toFixed(4)})`,
          },
        });
        break;
      case 'error':
        // The breaker's own error event repeats what its block already says.
        if (breakerTripped) breakerTripped = false;
        else items.push({ type: 'error', seq, error: event.error });
        break;
      case 'cancelled':
        items.push({ type: 'meta', seq, text: 'Cancelled.' });
        break;
      case 'compact':
        items.push({
          type: 'meta',
          seq,
          text: `Context compacted: ${event.original_messages} → ${event.compacted_messages} messages (about ${event.estimated_tokens_saved.toLocaleString()} tokens saved).`,
        });
        break;
      case 'prune':
        items.push({
          type: 'meta',
          seq,
          text: `${event.pruned_count} old tool results pruned (about ${event.estimated_tokens_saved.toLocaleString()} tokens saved).`,
        });
        break;
      case 'done':
        items.push({
          type: 'done',
          seq,
          usage: event.usage,
          ...(event.metadata?.summary ? { summary: event.metadata.summary } : {}),
          nextSteps: event.metadata?.next_steps ?? [],
        });
        break;
      case 'agent_spawned': {
        const item: AgentItem = {
          type: 'agent',
          seq,
          event: 'spawned',
          agentId: event.agent_id,
          runId: event.run_id,
          agentType: event.agent_type,
          task: event.task,
        };
        spawns.set(event.agent_id, item);
        items.push(item);
        break;
      }
      case 'agent_finished': {
        const spawn = spawns.get(event.agent_id);
        items.push({
          type: 'agent',
          seq,
          event: 'finished',
          agentId: event.agent_id,
          runId: event.run_id,
          ...(spawn?.agentType ? { agentType: spawn.agentType } : {}),
          ...(spawn?.task ? { task: spawn.task } : {}),
          status: event.status,
          error: event.error,
        });
        break;
      }
      case 'session_start':
        break;
    }
  }
  if (!live) settle();
  return items;
}
