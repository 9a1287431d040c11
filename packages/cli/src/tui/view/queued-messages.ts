import { Box, Text } from 'ink';
import React from 'react';
import { fitToWidth, sanitize } from '../text-width.ts';

const h = React.createElement;

/** At most this many queued messages are listed; more are counted. */
export const queuedRowsShown = 3;

/** Rows the queue takes above the input. */
export function queuedRows(queued: readonly string[]): number {
  return Math.min(queued.length, queuedRowsShown);
}

/** Messages sent to the run in progress, until its agent takes them at its next turn. */
export function QueuedMessages(props: {
  queued: readonly string[];
  width: number;
}): React.ReactElement | null {
  const { queued, width } = props;
  if (queued.length === 0) return null;
  const hidden = queued.length - queuedRowsShown;
  const shown = hidden > 0 ? queued.slice(-(queuedRowsShown - 1)) : queued;
  return h(
    Box,
    { flexDirection: 'column', flexShrink: 0 },
    ...(hidden > 0 ? [h(Text, { key: 'more', dimColor: true }, `» … ${hidden + 1} more queued`)] : []),
    ...shown.map((text, index) =>
      h(
        Text,
        { key: index, dimColor: true },
        fitToWidth(`» ${sanitize(text).replace(/\s+/g, ' ')} · queued for the agent’s next turn`, width),
      ),
    ),
  );
}
