import { homedir } from 'node:os';
import { basename } from 'node:path';
import { Box, Text } from 'ink';
import React from 'react';
import { displayWidth, fitToWidth, sanitize } from '../text-width.ts';
import type { TuiState } from '../tui-state.ts';
import { Spinner } from './spinner.ts';

const h = React.createElement;

/** The bottom line: what is going on, then model · session · workdir · tokens of the last run. */
export function StatusLine(props: {
  state: TuiState;
  width: number;
  linesBelow: number;
}): React.ReactElement {
  const { state } = props;
  const activity = state.run
    ? state.run.cancelling
      ? 'cancelling…'
      : state.pending
        ? 'waiting for your answer'
        : 'running…'
    : null;
  const usage = state.usage
    ? `tokens ${state.usage.input_tokens} in / ${state.usage.output_tokens} out`
    : 'no run yet';
  const parts = (workdir: string) =>
    [
      state.model ?? 'no model',
      state.sessionId ?? 'new session',
      workdir,
      usage,
      ...(state.images.length
        ? [`${state.images.length} image${state.images.length === 1 ? '' : 's'} attached`]
        : []),
      ...(props.linesBelow > 0 ? [`↓ ${props.linesBelow} more lines (PgDn)`] : []),
    ].join(' · ');
  const prefix = activity ? 2 + activity.length + 3 : 0;
  const room = Math.max(0, props.width - prefix);
  // A long workdir gives way first (to its last folder), so the usage stays in sight.
  // The model's name may come from a repository's config: drawn terminal-safe, as the workdir is.
  const full = sanitize(parts(homeRelative(state.workdir)));
  const short = sanitize(parts(`…/${basename(state.workdir)}`));
  const details = fitToWidth(displayWidth(full) <= room ? full : short, room);
  return h(
    Box,
    { height: 1, flexShrink: 0 },
    activity ? h(Text, { color: 'yellow' }, h(Spinner), ` ${activity} · `) : null,
    h(Text, { dimColor: true, wrap: 'truncate-end' }, details),
  );
}

function homeRelative(path: string): string {
  const home = homedir();
  return home && (path === home || path.startsWith(`${home}/`)) ? `~${path.slice(home.length)}` : path;
}
