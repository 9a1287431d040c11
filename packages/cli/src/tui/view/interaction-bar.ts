import { Box, Text } from 'ink';
import React from 'react';
import { fitToWidth, sanitize } from '../text-width.ts';
import type { PendingInteraction } from '../tui-state.ts';

const h = React.createElement;

/** Above the input while the run waits: what it asks, and the choices, so it is in sight even when scrolled. */
export function InteractionBar(props: { pending: PendingInteraction; width: number }): React.ReactElement {
  const { pending } = props;
  const question = pending.ask === 'question';
  const head = `${question ? 'Question' : 'Approval needed'}: ${sanitize(pending.prompt).replace(/\s+/g, ' ')}`;
  const choices = question
    ? pending.options.map((option, index) => `${index + 1}) ${sanitize(option)}`).join('   ')
    : '[y] approve   [n] reject   or type a reason to reject';
  return h(
    Box,
    { flexDirection: 'column', height: 2, flexShrink: 0 },
    h(Text, { color: 'yellow', bold: true }, fitToWidth(head, props.width)),
    h(Text, { color: 'yellow' }, fitToWidth(choices || 'type your answer', props.width)),
  );
}
