import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../../src/tools/index.ts';

/** Each simple command as its words, dynamic words marked with a trailing `*`. */
function words(source: string): string[][] {
  return parseCommandLine(source).map((command) =>
    command.words.map((word) => (word.dynamic ? `${word.text}*` : word.text)),
  );
}

describe('parseCommandLine', () => {
  it('splits on pipes, lists and newlines, removing quotes', () => {
    expect(words('npm test | tail -5 && echo "all done" || echo \'it failed\'; ls\npwd & wait')).toEqual([
      ['npm', 'test'],
      ['tail', '-5'],
      ['echo', 'all done'],
      ['echo', 'it failed'],
      ['ls'],
      ['pwd'],
      ['wait'],
    ]);
    expect(words('printf a\\ b \\\n  c')).toEqual([['printf', 'a b', 'c']]);
  });

  it('finds commands inside $(…), backticks, <(…), parameter expansions and subshells, first', () => {
    // Built from parts: the shell's `${` is not a template placeholder here.
    const expansion = ['$', '{A:-$(whoami)}'].join('');
    expect(words(`echo $(rm -rf x) \`id\` ${expansion}`)).toEqual([
      ['rm', '-rf', 'x'],
      ['id'],
      ['whoami'],
      ['echo', '$(rm -rf x)*', '`id`*', `${expansion}*`],
    ]);
    expect(words('diff <(ls a) <(ls b)')).toEqual([
      ['ls', 'a'],
      ['ls', 'b'],
      ['diff', '<(ls a)*', '<(ls b)*'],
    ]);
    expect(words('(cd sub && make) > log')).toEqual([['cd', 'sub'], ['make'], []]);
    expect(words('echo "$(cat "$f")"')).toEqual([
      ['cat', '$f*'],
      ['echo', '$(cat "$f")*'],
    ]);
  });

  it('keeps redirections apart from words', () => {
    const [command] = parseCommandLine('node a.js >out.txt 2>&1 < in.txt');
    expect(command!.words.map((word) => word.text)).toEqual(['node', 'a.js']);
    expect(command!.redirects.map((r) => [r.operator, r.target.text])).toEqual([
      ['>', 'out.txt'],
      ['>&', '1'],
      ['<', 'in.txt'],
    ]);
  });

  it('reads here-documents: an unquoted one expands substitutions, a quoted one is literal', () => {
    expect(words('cat <<EOF > f\nhello $(whoami)\nEOF\nls')).toEqual([['cat'], ['whoami'], ['ls']]);
    expect(words("cat <<'EOF'\n$(rm -rf /)\nEOF\nls")).toEqual([['cat'], ['ls']]);
    expect(words('cat <<-END\n\t`id`\n\tEND')).toEqual([['cat'], ['id']]);
  });

  it('marks variables, globs and brace expansions dynamic, but not literal words or {}', () => {
    expect(words('ls $HOME *.ts {a,b} x{1..3} {} "*.md" \'$X\' [ -f a ]')).toEqual([
      ['ls', '$HOME*', '*.ts*', '{a,b}*', 'x{1..3}*', '{}', '*.md', '$X', '[', '-f', 'a', ']'],
    ]);
  });

  it('ignores comments', () => {
    expect(words('ls # rm -rf /\n# whole line\npwd')).toEqual([['ls'], ['pwd']]);
    expect(words('echo a#b')).toEqual([['echo', 'a#b']]);
  });

  it('rejects unterminated quotes and parentheses, and flags syntax it does not check', () => {
    for (const [source, message] of [
      ['echo "abc', 'Unterminated double quote.'],
      ["echo 'abc", 'Unterminated single quote.'],
      ['echo $(ls', "Unclosed '(': a ')' is missing."],
      ['echo `ls', 'Unterminated backquote.'],
      ['ls )', "Unmatched ')'."],
    ] as const) {
      expect(() => parseCommandLine(source)).toThrow(
        expect.objectContaining({ message, unsupported: false }),
      );
    }
    for (const source of ['f() { ls; }', 'case $x in a) ls;; esac', "echo $'\\x72m'", 'function f { ls; }']) {
      expect(() => parseCommandLine(source)).toThrow(expect.objectContaining({ unsupported: true }));
    }
  });
});
