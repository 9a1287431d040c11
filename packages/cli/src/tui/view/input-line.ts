import { Box, Text } from 'ink';
import React from 'react';
import { inputViewport } from '../input-viewport.ts';
import type { Mode } from '../key-bindings.ts';
import type { EditorState } from '../line-editor.ts';

const h = React.createElement;

const placeholders: Record<Mode, string> = {
  idle: 'Type a prompt and press Enter · /help',
  running: 'Esc cancels · type a message for the agent and press Enter',
  approval: 'y approves · n rejects · or type a reason to reject and press Enter',
  question: 'Type your answer (or an option’s number) and press Enter',
};

const prompts: Record<Mode, string> = { idle: '› ', running: '» ', approval: '? ', question: '? ' };

/** The input line with its cursor (drawn inverted); a hint for what Enter does when it is empty. */
export function InputLine(props: { editor: EditorState; mode: Mode; width: number }): React.ReactElement {
  const prompt = prompts[props.mode];
  const room = Math.max(1, props.width - prompt.length);
  const promptText = h(Text, { color: props.mode === 'idle' ? 'green' : 'yellow', bold: true }, prompt);
  if (!props.editor.text) {
    const placeholder = placeholders[props.mode].slice(0, room);
    return h(
      Box,
      { height: 1, flexShrink: 0 },
      promptText,
      h(Text, { inverse: true, dimColor: true }, placeholder.slice(0, 1) || ' '),
      h(Text, { dimColor: true, wrap: 'truncate-end' }, placeholder.slice(1)),
    );
  }
  const view = inputViewport(props.editor.text, props.editor.cursor, room);
  return h(
    Box,
    { height: 1, flexShrink: 0 },
    promptText,
    h(Text, { wrap: 'truncate-end' }, view.before, h(Text, { inverse: true }, view.at), view.after),
  );
}
