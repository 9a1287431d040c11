import { stripVTControlCharacters } from 'node:util';
import { describe, expect, test } from 'vitest';
import { fileChangeLines } from '../src/render/file-diff.ts';
import { createMarkdownStream, renderMarkdown } from '../src/render/markdown.ts';

/** Rendered Markdown as plain text: what is left once the styles are taken off. */
const plain = (markdown: string) => stripVTControlCharacters(renderMarkdown(markdown));

describe('Markdown for the terminal', () => {
  test('marks become styles; what is not emphasis stays as written', () => {
    expect(plain('## Plan\n**bold** *it* _it_ __b__ ~~gone~~ `co*de*`\n')).toBe(
      'Plan\nbold it it b gone co*de*\n',
    );
    // Words and numbers with `_` and `*` inside, and a URL's underscores, are not emphasis.
    expect(plain('snake_case_name 2*3*4 [d](https://x.dev/a_b_c)\n')).toBe(
      'snake_case_name 2*3*4 d (https://x.dev/a_b_c)\n',
    );
    expect(plain('\\*not italic\\* <https://e.com> [https://e.com](https://e.com)\n')).toBe(
      '*not italic* https://e.com https://e.com\n',
    );
    expect(plain('- a\n  * b\n3. c\n- [x] done\n> said\n---\n')).toBe(
      `• a\n  • b\n3. c\n• ☑ done\n│ said\n${'─'.repeat(40)}\n`,
    );
    // A code block keeps its text as written; its fences go.
    expect(plain('```ts\n# not a heading **x**\n```\nafter\n')).toBe('# not a heading **x**\nafter\n');
  });

  test('a style inside the same style turns it back on', () => {
    // Bold text in a bold heading: after the inner span ends, the heading is still bold.
    expect(renderMarkdown('# A **b** c')).toBe('\x1b[1m\x1b[4mA \x1b[1mb\x1b[22m\x1b[1m c\x1b[24m\x1b[22m\n');
  });

  test('streamed in pieces, a line is rendered once it is whole', () => {
    let written = '';
    const stream = createMarkdownStream((text) => (written += text));
    for (const chunk of ['**bo', 'ld** and `co', 'de`\n## He', 'ading']) stream.push(chunk);
    expect(stripVTControlCharacters(written)).toBe('bold and code\n');
    expect(stream.pending).toBe(true);
    stream.end();
    expect(stripVTControlCharacters(written)).toBe('bold and code\nHeading\n');
  });
});

describe('file changes as diffs', () => {
  test('from the arguments, only once the result says the change was made', () => {
    const edit = { path: 'a.py', old_text: 'a\nb\n', new_text: 'a\nc\n' };
    expect(fileChangeLines('edit_file', edit, 'Edited a.py: replaced 1 occurrence.')).toEqual([
      ' a',
      '-b',
      '+c',
    ]);
    expect(fileChangeLines('edit_file', edit, 'Error: old_text was not found in a.py.')).toBeUndefined();
    expect(fileChangeLines('edit_file', edit, 'Not run: the user rejected this call.')).toBeUndefined();
    const write = { path: 'n.md', content: 'x\ny' };
    expect(fileChangeLines('write_file', write, 'Created n.md (3 bytes, 2 lines).')).toEqual(['+x', '+y']);
    // An overwrite needs the content it replaced; without it, no diff rather than a wrong one.
    expect(fileChangeLines('write_file', write, 'Overwrote n.md (3 bytes, 2 lines).')).toBeUndefined();
    expect(fileChangeLines('write_file', write, 'Overwrote n.md (3 bytes, 2 lines).', 'x\nz\n')).toEqual([
      ' x',
      '-z',
      '+y',
    ]);
    const patch = { path: 'p', diff: '@@ -1,2 +1,2 @@\n a\n-b\n+c\n' };
    expect(fileChangeLines('patch', patch, 'Patched p: applied 1 hunk (+1 -1 lines).')).toEqual([
      ' a',
      '-b',
      '+c',
    ]);
    expect(fileChangeLines('read_file', { path: 'p' }, 'a')).toBeUndefined();
  });
});
