import { formatToolCall } from '../render/truncate.ts';
import { displayWidth, fitToWidth, sanitize, wrapToWidth } from './text-width.ts';
import type { Entry, Tone } from './transcript.ts';

/** How a line is drawn; the view maps each to colours. */
export type LineStyle = 'plain' | 'user' | 'thinking' | 'tool' | 'result' | 'failed' | 'ask' | Tone;

export interface StyledLine {
  text: string;
  style: LineStyle;
}

// Entries are immutable, so the lines of one that did not change are reused until the width changes.
const cache = new WeakMap<Entry, { width: number; lines: StyledLine[] }>();

/** The whole transcript as screen lines of at most `width` columns, a blank line between entries. */
export function transcriptLines(entries: readonly Entry[], width: number): StyledLine[] {
  const lines: StyledLine[] = [];
  for (const entry of entries) {
    if (lines.length > 0) lines.push({ text: '', style: 'plain' });
    let cached = cache.get(entry);
    if (cached?.width !== width) {
      cached = { width, lines: entryLines(entry, width) };
      cache.set(entry, cached);
    }
    lines.push(...cached.lines);
  }
  return lines;
}

/** One entry as screen lines. */
export function entryLines(entry: Entry, width: number): StyledLine[] {
  switch (entry.kind) {
    case 'user':
      return [
        ...block(entry.text, width, entry.duringRun ? '» ' : '› ', 'user'),
        ...entry.images.map((name) => line(`  [image: ${name}]`, width, 'muted')),
      ];
    case 'assistant':
      return block(entry.text.replace(/^\n+/, ''), width, '', 'plain');
    case 'thinking':
      return block(entry.text.trim(), width, '✻ ', 'thinking');
    case 'tool': {
      // The spec's 120-character cut applies to the arguments; a narrow terminal wraps the rest.
      const call = block(formatToolCall(entry.name, entry.args), width, '● ', 'tool');
      if (entry.result === null) return [...call, line('  ⎿ running…', width, 'muted')];
      return [...call, resultLine(entry.result, width)];
    }
    case 'interaction': {
      const lines = block(entry.prompt, width, '? ', 'ask');
      if (entry.ask === 'question' && entry.options.length > 0) {
        const choices = entry.options.map((option, index) => `${index + 1}) ${option}`).join('   ');
        lines.push(...block(choices, width, '  ', 'ask'));
      }
      lines.push(line(`  → ${entry.decision ?? 'waiting for your answer'}`, width, 'muted'));
      return lines;
    }
    case 'notice':
      return block(entry.text, width, '', entry.tone);
  }
}

/** A tool result on one line: its first non-blank line, cut to fit, and how many lines follow. */
export function resultLine(result: string, width: number): StyledLine {
  const style = result.startsWith('Error:') ? 'failed' : 'result';
  const lines = sanitize(result).trimEnd().split('\n');
  const first = lines.findIndex((text) => text.trim() !== '');
  if (first === -1) return line('  ⎿ (no output)', width, style);
  const more = lines.length - first - 1;
  const suffix = more > 0 ? ` (+${more} line${more === 1 ? '' : 's'})` : '';
  const head = fitToWidth(`  ⎿ ${lines[first]!.trim()}`, width - displayWidth(suffix));
  return { text: fitToWidth(`${head}${suffix}`, width), style };
}

/** Wrapped text; the first line carries `prefix`, the others are indented to match it. */
function block(text: string, width: number, prefix: string, style: LineStyle): StyledLine[] {
  const indent = ' '.repeat(displayWidth(prefix));
  return wrapToWidth(sanitize(text), width - indent.length).map((part, index) => ({
    text: `${index === 0 ? prefix : indent}${part}`,
    style,
  }));
}

/** One line, cut to the width. */
function line(text: string, width: number, style: LineStyle): StyledLine {
  return { text: fitToWidth(sanitize(text), width), style };
}
