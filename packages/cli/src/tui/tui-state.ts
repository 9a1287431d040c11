import type { ImagePayload, Usage } from '@keel/runtime';
import type { Mode } from './key-bindings.ts';
import { type EditorState, emptyEditor } from './line-editor.ts';
import type { Entry } from './transcript.ts';

/** An approval or question the run in progress waits on. */
export interface PendingInteraction {
  requestId: string;
  /** `approval` or `question`. */
  ask: string;
  prompt: string;
  options: string[];
}

export interface TuiState {
  entries: Entry[];
  /** The conversation's session; null until the first run of a new session creates it. */
  sessionId: string | null;
  /** The run in progress (its id once known); null when idle. */
  run: { id: string | null; cancelling: boolean } | null;
  pending: PendingInteraction | null;
  /** Messages sent to the run in progress that its agent has not taken yet (shown above the input). */
  queued: string[];
  /** Images attached with /image, sent with the next prompt. */
  images: ImagePayload[];
  /** Token usage of the last run that finished. */
  usage: Usage | null;
  editor: EditorState;
  /** Shown in the status line. */
  model: string | null;
  workdir: string;
}

export function initialState(fields: Pick<TuiState, 'entries' | 'model' | 'workdir'>): TuiState {
  return {
    sessionId: null,
    run: null,
    pending: null,
    queued: [],
    images: [],
    usage: null,
    editor: emptyEditor,
    ...fields,
  };
}

/** What keys mean now: answering what the run asks, steering a run, or idle. */
export function modeOf(state: TuiState): Mode {
  if (state.pending) return state.pending.ask === 'question' ? 'question' : 'approval';
  return state.run ? 'running' : 'idle';
}
