import type { TextProps } from 'ink';
import type { LineStyle } from '../entry-lines.ts';

/** How each kind of line looks: prompts bold, tools cyan, thinking and previews dimmed, problems in colour. */
export const lineStyles: Record<LineStyle, TextProps> = {
  plain: {},
  user: { bold: true },
  thinking: { dimColor: true, italic: true },
  tool: { color: 'cyan' },
  result: { dimColor: true },
  failed: { color: 'red' },
  ask: { color: 'yellow' },
  info: {},
  success: { color: 'green' },
  warning: { color: 'yellow' },
  error: { color: 'red' },
  muted: { dimColor: true },
};
