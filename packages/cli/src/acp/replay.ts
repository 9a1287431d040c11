import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { Runtime } from '@keel/runtime';
import type { ModeId, SessionChoices } from './session-options.ts';
import { isModeId } from './session-options.ts';

/** Updates that describe the session's state, not its history: sent fresh, never replayed. */
const stateUpdates = new Set<SessionUpdate['sessionUpdate']>([
  'current_mode_update',
  'config_option_update',
  'available_commands_update',
  'session_info_update',
]);

/** What `session/load` shows: the editor's transcript as it was, else the conversation the runtime kept. */
export function replayOf(
  transcript: SessionUpdate[] | undefined,
  conversation: ReturnType<Runtime['sessions']['conversation']>,
): SessionUpdate[] {
  if (transcript) return transcript.filter((update) => !stateUpdates.has(update.sessionUpdate));
  return conversationReplay(conversation);
}

/** The mode and model last chosen in the transcript (a session comes back as the editor left it). */
export function choicesOf(transcript: SessionUpdate[] | undefined): { mode?: ModeId; model?: string } {
  const chosen: { mode?: ModeId; model?: string } = {};
  for (const update of transcript ?? []) {
    if (update.sessionUpdate === 'current_mode_update' && isModeId(update.currentModeId)) {
      chosen.mode = update.currentModeId;
    } else if (update.sessionUpdate === 'config_option_update') {
      const model = update.configOptions.find((option) => option.id === 'model');
      if (model && typeof model.currentValue === 'string') chosen.model = model.currentValue;
    }
  }
  return chosen;
}

/** Restores what was chosen where it is still on offer (a model the endpoint dropped is not forced). */
export function restoreChoices(choices: SessionChoices, chosen: { mode?: ModeId; model?: string }): void {
  if (chosen.mode) choices.mode = chosen.mode;
  if (chosen.model && choices.models.includes(chosen.model)) choices.model = chosen.model;
}

/**
 * A session no editor has seen (started by `keel chat`, the TUI or the web API) from its conversation:
 * the user's words and images, the answers, and each tool call with its result.
 */
function conversationReplay(history: ReturnType<Runtime['sessions']['conversation']>): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  for (const message of history) {
    const text = typeof message.content === 'string' ? message.content : '';
    if (message.role === 'user') {
      if (text) updates.push({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text } });
      for (const image of message.images ?? []) {
        updates.push({
          sessionUpdate: 'user_message_chunk',
          content: { type: 'image', data: image.data, mimeType: image.media_type },
        });
      }
    } else if (message.role === 'assistant') {
      if (text) updates.push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
      for (const call of message.tool_calls ?? []) {
        updates.push({
          sessionUpdate: 'tool_call',
          toolCallId: call.id,
          title: call.name,
          status: 'completed',
        });
      }
    } else if (message.role === 'tool' && message.tool_call_id) {
      updates.push({
        sessionUpdate: 'tool_call_update',
        toolCallId: message.tool_call_id,
        status: 'completed',
        content: [{ type: 'content', content: { type: 'text', text } }],
      });
    }
  }
  return updates;
}
