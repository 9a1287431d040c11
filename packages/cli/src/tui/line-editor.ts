import { stripTerminalControls } from '../render/terminal-safe.ts';
import { splitGraphemes } from './text-width.ts';

/** The input line: its text, the cursor, and the lines sent before (Up and Down recall them). */
export interface EditorState {
  text: string;
  /** Offset in `text`, always between two grapheme clusters. */
  cursor: number;
  /** Lines sent before, oldest first. */
  history: readonly string[];
  /** While recalling history: which line is shown, and the line being typed before Up was pressed. */
  recall: { index: number; draft: string } | null;
}

export type EditOp =
  | { type: 'insert'; text: string }
  | { type: 'backspace' }
  | { type: 'delete' }
  | { type: 'left' }
  | { type: 'right' }
  | { type: 'home' }
  | { type: 'end' }
  /** Ctrl-U: the whole line. */
  | { type: 'clear' }
  /** Ctrl-K: from the cursor to the end. */
  | { type: 'kill-to-end' }
  /** Ctrl-W: the word before the cursor. */
  | { type: 'delete-word' }
  | { type: 'history-previous' }
  | { type: 'history-next' };

const historyLimit = 100;

export const emptyEditor: EditorState = { text: '', cursor: 0, history: [], recall: null };

export function edit(state: EditorState, op: EditOp): EditorState {
  const { text, cursor } = state;
  switch (op.type) {
    case 'insert': {
      const typed = stripTerminalControls(op.text);
      return typed
        ? typing(state, text.slice(0, cursor) + typed + text.slice(cursor), cursor + typed.length)
        : state;
    }
    case 'backspace': {
      const start = previousBoundary(text, cursor);
      return typing(state, text.slice(0, start) + text.slice(cursor), start);
    }
    case 'delete':
      return typing(state, text.slice(0, cursor) + text.slice(nextBoundary(text, cursor)), cursor);
    case 'left':
      return { ...state, cursor: previousBoundary(text, cursor) };
    case 'right':
      return { ...state, cursor: nextBoundary(text, cursor) };
    case 'home':
      return { ...state, cursor: 0 };
    case 'end':
      return { ...state, cursor: text.length };
    case 'clear':
      return typing(state, '', 0);
    case 'kill-to-end':
      return typing(state, text.slice(0, cursor), cursor);
    case 'delete-word': {
      const start = text.slice(0, cursor).replace(/\S+\s*$|\s+$/, '').length;
      return typing(state, text.slice(0, start) + text.slice(cursor), start);
    }
    case 'history-previous':
      return recallAt(state, (state.recall?.index ?? state.history.length) - 1);
    case 'history-next':
      return state.recall ? recallAt(state, state.recall.index + 1) : state;
  }
}

/** The line was sent: it goes into the history and the input is empty again. */
export function submitted(state: EditorState): EditorState {
  const line = state.text.trim();
  const history =
    line && state.history.at(-1) !== line ? [...state.history, line].slice(-historyLimit) : state.history;
  return { text: '', cursor: 0, history, recall: null };
}

/** Typing ends a history recall: the recalled line becomes the one being edited. */
function typing(state: EditorState, text: string, cursor: number): EditorState {
  return { ...state, text, cursor, recall: null };
}

function recallAt(state: EditorState, index: number): EditorState {
  if (index < 0 || state.history.length === 0) return state;
  const draft = state.recall?.draft ?? state.text;
  if (index >= state.history.length) return { ...state, text: draft, cursor: draft.length, recall: null };
  const text = state.history[index]!;
  return { ...state, text, cursor: text.length, recall: { index, draft } };
}

function previousBoundary(text: string, cursor: number): number {
  let offset = 0;
  for (const part of splitGraphemes(text.slice(0, cursor))) {
    if (offset + part.length >= cursor) return offset;
    offset += part.length;
  }
  return 0;
}

function nextBoundary(text: string, cursor: number): number {
  const [next] = splitGraphemes(text.slice(cursor));
  return cursor + (next?.length ?? 0);
}
