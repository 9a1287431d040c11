import type { EditOp } from './line-editor.ts';

/** What the TUI is doing, which decides what a key means. */
export type Mode = 'idle' | 'running' | 'approval' | 'question';

/** The key fields the bindings read (ink's `Key` has them all). */
export interface KeyPress {
  return?: boolean;
  escape?: boolean;
  ctrl?: boolean;
  meta?: boolean;
  tab?: boolean;
  backspace?: boolean;
  delete?: boolean;
  upArrow?: boolean;
  downArrow?: boolean;
  leftArrow?: boolean;
  rightArrow?: boolean;
  pageUp?: boolean;
  pageDown?: boolean;
  home?: boolean;
  end?: boolean;
}

export type KeyAction =
  | { type: 'edit'; op: EditOp }
  | { type: 'submit' }
  | { type: 'cancel-run' }
  | { type: 'quit' }
  | { type: 'approve' }
  | { type: 'reject' }
  | { type: 'scroll'; direction: 'up' | 'down' }
  | { type: 'ignore' };

const ctrlEdits: Record<string, EditOp> = {
  a: { type: 'home' },
  e: { type: 'end' },
  b: { type: 'left' },
  f: { type: 'right' },
  u: { type: 'clear' },
  k: { type: 'kill-to-end' },
  w: { type: 'delete-word' },
  h: { type: 'backspace' },
  p: { type: 'history-previous' },
  n: { type: 'history-next' },
};

/**
 * The key map. Ctrl-C and Esc cancel a run in progress (also one waiting for an answer); when idle,
 * Ctrl-C clears a typed line and quits on an empty one, so Ctrl-C twice stops a run and then the TUI.
 * While an approval waits and nothing is typed, `y` approves and `n` rejects at once.
 */
export function keyAction(
  input: string,
  key: KeyPress,
  context: { mode: Mode; inputEmpty: boolean },
): KeyAction {
  const { mode, inputEmpty } = context;
  const busy = mode !== 'idle';
  if (key.ctrl && input === 'c') {
    if (busy) return { type: 'cancel-run' };
    return inputEmpty ? { type: 'quit' } : edit({ type: 'clear' });
  }
  if (key.ctrl && input === 'd') return !busy && inputEmpty ? { type: 'quit' } : edit({ type: 'delete' });
  if (key.escape) return busy ? { type: 'cancel-run' } : edit({ type: 'clear' });
  if (key.return) return { type: 'submit' };
  if (mode === 'approval' && inputEmpty && !key.ctrl && !key.meta) {
    if (input === 'y' || input === 'Y') return { type: 'approve' };
    if (input === 'n' || input === 'N') return { type: 'reject' };
  }
  if (key.pageUp) return { type: 'scroll', direction: 'up' };
  if (key.pageDown) return { type: 'scroll', direction: 'down' };
  if (key.upArrow) return edit({ type: 'history-previous' });
  if (key.downArrow) return edit({ type: 'history-next' });
  if (key.leftArrow) return edit({ type: 'left' });
  if (key.rightArrow) return edit({ type: 'right' });
  if (key.home) return edit({ type: 'home' });
  if (key.end) return edit({ type: 'end' });
  if (key.backspace) return edit({ type: 'backspace' });
  if (key.delete) return edit({ type: 'delete' });
  if (key.ctrl) {
    const op = ctrlEdits[input];
    return op ? edit(op) : { type: 'ignore' };
  }
  if (key.meta || key.tab || !input) return { type: 'ignore' };
  return edit({ type: 'insert', text: input });
}

/**
 * Keys typed faster than they are read arrive as one chunk ("hello\rworld"); a bracketed paste comes
 * separately (`usePaste`). So a carriage return inside a typed chunk is Enter, as in a cooked terminal.
 */
export function splitTypeAhead(input: string, key: KeyPress): Array<{ input: string; key: KeyPress }> {
  if (input.length < 2 || !input.includes('\r') || key.ctrl || key.meta) return [{ input, key }];
  return input
    .split(/(\r)/)
    .filter(Boolean)
    .map((part) => (part === '\r' ? { input: '', key: { return: true } } : { input: part, key: {} }));
}

function edit(op: EditOp): KeyAction {
  return { type: 'edit', op };
}
