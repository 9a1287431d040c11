import { Box, Text, useInput, usePaste, useWindowSize } from 'ink';
import React from 'react';
import type { TuiController } from '../controller.ts';
import { transcriptLines } from '../entry-lines.ts';
import { keyAction, splitTypeAhead } from '../key-bindings.ts';
import { type ScrollTop, scrollBy, visibleWindow } from '../scroll.ts';
import { fitToWidth } from '../text-width.ts';
import { modeOf } from '../tui-state.ts';
import { InputLine } from './input-line.ts';
import { InteractionBar } from './interaction-bar.ts';
import { QueuedMessages, queuedRows } from './queued-messages.ts';
import { StatusLine } from './status-line.ts';
import { TranscriptView } from './transcript-view.ts';

const h = React.createElement;

/** Below this the layout cannot show a transcript, an input and a status line: the TUI says so instead. */
export const minimumSize = { columns: 30, rows: 8 };

/**
 * The screen, top to bottom: the transcript (scrolls with PgUp/PgDn, follows new output otherwise), what
 * a waiting run asks, a rule, the input line and the status line.
 */
export function App(props: { controller: TuiController }): React.ReactElement {
  const { controller } = props;
  const state = React.useSyncExternalStore(controller.store.subscribe, controller.store.get);
  const { columns, rows } = useWindowSize();
  const [scrollTop, setScrollTop] = React.useState<ScrollTop>(null);
  const lines = React.useMemo(() => transcriptLines(state.entries, columns), [state.entries, columns]);
  const footerRows = 3 + (state.pending ? 2 : 0) + queuedRows(state.queued);
  const height = Math.max(1, rows - footerRows);
  const view = visibleWindow(lines.length, height, scrollTop);

  useInput((chunk, pressed) => {
    for (const { input, key } of splitTypeAhead(chunk, pressed)) {
      // Read the state now, not from the last render: keys can arrive faster than frames.
      const current = controller.store.get();
      const action = keyAction(input, key, { mode: modeOf(current), inputEmpty: current.editor.text === '' });
      if (action.type === 'scroll')
        setScrollTop((top) => scrollBy(top, action.direction, lines.length, height));
      else {
        if (action.type === 'submit') setScrollTop(null);
        controller.perform(action);
      }
    }
  });
  usePaste((text) => controller.paste(text));

  if (columns < minimumSize.columns || rows < minimumSize.rows) {
    const message = `Terminal too small (${columns}×${rows}); keel tui needs ${minimumSize.columns}×${minimumSize.rows}. Ctrl-C quits.`;
    return h(Box, { height: 1 }, h(Text, { color: 'yellow' }, fitToWidth(message, columns)));
  }
  return h(
    Box,
    { flexDirection: 'column', width: columns, height: rows },
    h(TranscriptView, { lines, top: view.top, height }),
    h(QueuedMessages, { queued: state.queued, width: columns }),
    state.pending ? h(InteractionBar, { pending: state.pending, width: columns }) : null,
    h(Text, { dimColor: true }, '─'.repeat(columns)),
    h(InputLine, { editor: state.editor, mode: modeOf(state), width: columns }),
    h(StatusLine, { state, width: columns, linesBelow: view.below }),
  );
}
