import { Box, Text } from 'ink';
import React from 'react';
import type { StyledLine } from '../entry-lines.ts';
import { lineStyles } from './line-style.ts';

const h = React.createElement;

/** The visible part of the transcript: `height` lines from `top`, each cut (never wrapped) to fit. */
export function TranscriptView(props: {
  lines: readonly StyledLine[];
  top: number;
  height: number;
}): React.ReactElement {
  const shown = props.lines.slice(props.top, props.top + props.height);
  return h(
    Box,
    { flexDirection: 'column', height: props.height, flexShrink: 0, overflow: 'hidden' },
    ...shown.map((line, index) =>
      // Keys by screen row: rows are redrawn in place as the view scrolls.
      h(Text, { key: index, wrap: 'truncate-end', ...lineStyles[line.style] }, line.text || ' '),
    ),
  );
}
