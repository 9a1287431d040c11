import { describe, expect, test } from 'vitest';
import { entryLines, resultLine, transcriptLines } from '../../src/tui/entry-lines.ts';
import { inputViewport } from '../../src/tui/input-viewport.ts';
import { scrollBy, visibleWindow } from '../../src/tui/scroll.ts';
import { displayWidth, fitToWidth, sanitize, wrapToWidth } from '../../src/tui/text-width.ts';
import type { Entry } from '../../src/tui/transcript.ts';

const texts = (entry: Entry, width = 80) => entryLines(entry, width).map((line) => line.text);

describe('entry lines', () => {
  test('a tool call: ● name(args), the arguments cut at 120 characters, then a one-line preview', () => {
    const args = { path: 'src/app.ts', content: 'x'.repeat(200) };
    const lines = entryLines(
      { kind: 'tool', callId: 'c', name: 'write_file', args, result: 'Wrote it.\n(2 lines)' },
      200,
    );
    expect(lines).toEqual([
      { text: `● write_file(${JSON.stringify(args).slice(0, 117)}...)`, style: 'tool' },
      { text: '  ⎿ Wrote it. (+1 line)', style: 'result' },
    ]);
    expect(texts({ kind: 'tool', callId: 'c', name: 'glob', args: {}, result: null })).toEqual([
      '● glob({})',
      '  ⎿ running…',
    ]);
  });

  test('a failed tool result is marked; an empty one says so; the count survives a narrow screen', () => {
    expect(resultLine('Error: no such file', 80).style).toBe('failed');
    expect(resultLine('\n\n', 80).text).toBe('  ⎿ (no output)');
    const narrow = resultLine(`${'long line '.repeat(20)}\nsecond\nthird`, 40);
    expect(narrow.text).toMatch(/^ {2}⎿ long line.*… \(\+2 lines\)$/);
    expect(displayWidth(narrow.text)).toBeLessThanOrEqual(40);
  });

  test('text wraps at the width, continuation lines indented under the prefix', () => {
    const lines = texts(
      { kind: 'user', text: 'one two three four five six', images: ['a.png'], duringRun: false },
      12,
    );
    // One-line items are cut to the width instead.
    expect(lines).toEqual(['› one two', '  three four', '  five six', '  [image: a…']);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(12);
  });

  test('a question lists its options numbered, and shows the decision once made', () => {
    const entry: Entry = {
      kind: 'interaction',
      requestId: 'apr_1',
      ask: 'question',
      prompt: 'Which license?',
      options: ['MIT', 'Apache-2.0'],
      decision: 'answered: MIT',
    };
    expect(texts(entry)).toEqual(['? Which license?', '  1) MIT   2) Apache-2.0', '  → answered: MIT']);
  });

  test('entries are separated by a blank line; unchanged entries reuse their lines', () => {
    const entries: Entry[] = [
      { kind: 'assistant', text: 'Hi.' },
      { kind: 'notice', tone: 'muted', text: 'note' },
    ];
    const lines = transcriptLines(entries, 40);
    expect(lines.map((line) => line.text)).toEqual(['Hi.', '', 'note']);
    expect(transcriptLines(entries, 40)[0]).toBe(lines[0]);
  });
});

describe('text width', () => {
  test('escape sequences and control characters from a model or tool are shown escaped, never drawn', () => {
    expect(sanitize('\u001b[31mred\u001b[0m\tx\u0007\r\nnext\u009b')).toBe(
      '\\x1b[31mred\\x1b[0m    x\\x07\nnext\\x9b',
    );
  });

  test('wide characters count two columns when wrapping and cutting', () => {
    expect(displayWidth('日本語')).toBe(6);
    expect(wrapToWidth('日本語の文章', 4)).toEqual(['日本', '語の', '文章']);
    expect(wrapToWidth('    return someValue;', 14)).toEqual(['    return', '    someValue;']);
    expect(fitToWidth('日本語の文章', 7)).toBe('日本語…');
    expect(fitToWidth('short', 7)).toBe('short');
  });
});

describe('input viewport', () => {
  test('a short line shows whole, the cursor cell split out', () => {
    expect(inputViewport('hello', 2, 20)).toEqual({ before: 'he', at: 'l', after: 'lo' });
    expect(inputViewport('hello', 5, 20)).toEqual({ before: 'hello', at: ' ', after: '' });
  });

  test('a long line scrolls so the cursor stays in sight; newlines show as ↵', () => {
    const text = `${'a'.repeat(30)}\nend`;
    const view = inputViewport(text, text.length, 10);
    expect(view).toEqual({ before: 'aaaaa↵end', at: ' ', after: '' });
    expect(inputViewport(text, 0, 10)).toEqual({ before: '', at: 'a', after: 'a'.repeat(9) });
  });
});

describe('scrolling', () => {
  test('following shows the end; a held position stays put while lines are added', () => {
    expect(visibleWindow(100, 10, null)).toEqual({ top: 90, below: 0 });
    const up = scrollBy(null, 'up', 100, 10);
    expect(up).toBe(82);
    expect(visibleWindow(150, 10, up)).toEqual({ top: 82, below: 58 });
  });

  test('paging down to the end follows again; paging up stops at the top', () => {
    expect(scrollBy(82, 'down', 100, 10)).toBeNull();
    expect(scrollBy(3, 'up', 100, 10)).toBe(0);
    expect(visibleWindow(5, 10, null)).toEqual({ top: 0, below: 0 });
  });
});
