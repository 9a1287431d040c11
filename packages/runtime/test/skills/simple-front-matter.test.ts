import { type SeededRandom, seededRandom } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { parseSimpleFrontMatter } from '../../src/skills/simple-front-matter.ts';

// parseSimpleFrontMatter's contract: when it answers, the answer is exactly what the YAML library reads;
// anything else it declines (undefined), and front-matter.ts then hands the text to the YAML library.

/** What front-matter.ts reads with the YAML library (warnings off: an unknown tag only warns). */
function yamlReads(text: string): unknown {
  return parse(text, { logLevel: 'error' });
}

describe('front matter it reads itself, as YAML does', () => {
  test.each([
    ['plain values', 'name: git\ndescription: Commit, branch and merge with git.'],
    [
      'words YAML 1.1 read as booleans or numbers, text in YAML 1.2',
      'a: yes\nb: No\nc: on\nd: Infinity\ne: NaN',
    ],
    ['a key YAML 1.1 read as a boolean', 'yes: no'],
    ['keys with digits, dashes and underscores', 'allowed-tools: Read\nx_1: y\nA9: z'],
    ['quotes inside a value', `summary: it's "the" one`],
    ['colons not followed by a space', 'homepage: https://example.com:8080/a?b=c:d\nratio: a:b'],
    ['a # not after a space', 'language: C#\nissue: see#42'],
    ['spaces around the value', 'name:   padded   '],
    [
      'punctuation that is no indicator',
      'a: (note)\nb: $HOME\nc: /usr/bin\nd: ^x\ne: ;x\nf: _x\ng: \\path\nh: =x',
    ],
    ['unicode', 'description: Café ☕ — 日本語, résumé 🚀\nname: naïve\nspace: a\u00a0b\u200bc'],
    ['CRLF line ends and blank lines', 'name: a\r\n\r\n  \r\ndescription: b\r\n'],
    ['keys named like members of Object.prototype', 'constructor: x\ntoString: y'],
  ])('%s', (_, text) => {
    const simple = parseSimpleFrontMatter(text);
    expect(simple).toBeDefined();
    expect(simple).toEqual(yamlReads(text));
  });
});

// Each declined case with what YAML reads instead (or the error it throws): not the plain text of the line.
describe('front matter it hands to the YAML library', () => {
  test.each<[string, string, unknown]>([
    ['a number', 'version: 2', { version: 2 }],
    ['hex, a sign, a leading point', 'a: 0x1F\nb: -1\nc: .5', { a: 31, b: -1, c: 0.5 }],
    ['a boolean and null', 'a: true\nb: NULL', { a: true, b: null }],
    ['~ and .inf', 'a: ~\nb: .inf', { a: null, b: Infinity }],
    ['a key YAML reads as null', 'null: x', { '': 'x' }],
    ['single quotes', "a: 'it''s'", { a: "it's" }],
    ['double quotes with an escape', 'a: "tab\\there"', { a: 'tab\there' }],
    ['a comment after the value', 'a: b # why', { a: 'b' }],
    ['a comment line', '# about\na: b', { a: 'b' }],
    ['an empty value', 'a: ', { a: null }],
    ['an empty value without a space', 'a:', { a: null }],
    ['no space after the colon', 'a:b', 'a:b'],
    ['a list', 'tags:\n  - git\n  - vcs', { tags: ['git', 'vcs'] }],
    ['a flow list', 'tags: [git, vcs]', { tags: ['git', 'vcs'] }],
    ['a nested map', 'metadata:\n  author: me', { metadata: { author: 'me' } }],
    ['a flow map', 'a: {b: c}', { a: { b: 'c' } }],
    ['a value continued on the next line', 'description: first\n  second', { description: 'first second' }],
    ['a block scalar', 'description: |\n  one\n  two', { description: 'one\ntwo\n' }],
    ['an anchor', 'a: &x y', { a: 'y' }],
    ['a tag', 'a: !!str 1', { a: '1' }],
    ['a trailing tab', 'a: b\t', { a: 'b' }],
    ['a byte order mark before the first key', '\ufeffname: x', { name: 'x' }],
    ['a document end marker', 'a: x\n...', { a: 'x' }],
    ['nothing but blank lines', '\n  \n', null],
    ['a repeated key', 'a: b\na: c', /Map keys must be unique/],
    ['a second mapping in the value', 'a: see: this', /Nested mappings/],
    ['a value ending in a colon', 'a: ends:', /Nested mappings/],
    ['an alias', 'a: *x', /Unresolved alias/],
    ['a reserved first character', 'a: @x', /reserved character @/],
  ])('%s', (_, text, yamlAnswer) => {
    expect(parseSimpleFrontMatter(text)).toBeUndefined();
    if (yamlAnswer instanceof RegExp) expect(() => yamlReads(text)).toThrow(yamlAnswer);
    else expect(yamlReads(text)).toEqual(yamlAnswer);
  });
});

// Generated front matter: plain keys and words, and pieces at the edges of what it accepts (indicator
// characters, YAML's special words, white space, separators), now and then a line of something else.
const plainKeys = ['name', 'description', 'allowed-tools', 'x_1', 'Yes', 'on'];
const edgeKeys = ['true', 'Null', '_x', '1a', ' name', 'na me'];
const words = ['git', 'text', ' ', 'é', '日本', '🚀', '\\', '/'];
const edges = [
  ...'-?:,[]{}#&*!|>\'"%@`~+.',
  ...['0', '12', '0x1F', '1e3', '.inf', 'true', 'null', 'yes', 'NaN'],
  ...['  ', ': ', ' #', '\t', '\u00a0', '\u2028', '\ufeff', '\u0085'],
];
const lineEnds = ['\n', '\n', '\r\n', '\n\n', '\n  \n'];
const otherLines = ['# note', '  - item', '  nested: map', '  continued', '---', '...', ''];

function frontMatter(random: SeededRandom): string {
  let text = '';
  for (let count = random.int(1, 3); count > 0; count--) {
    text += random.next() < 0.1 ? random.pick(otherLines) : keyValueLine(random);
    text += random.pick(lineEnds);
  }
  return text;
}

function keyValueLine(random: SeededRandom): string {
  let value = '';
  for (let parts = random.int(0, 4); parts > 0; parts--) {
    value += random.pick(random.next() < 0.8 ? words : edges);
  }
  const key = random.pick(random.next() < 0.9 ? plainKeys : edgeKeys);
  return `${key}:${random.next() < 0.9 ? ' ' : ''}${value}`;
}

test('on generated front matter, every answer it gives is the YAML library’s', () => {
  const random = seededRandom(20_260_417);
  let answered = 0;
  const total = 4000;
  for (let index = 0; index < total; index++) {
    const text = frontMatter(random);
    const simple = parseSimpleFrontMatter(text);
    if (simple === undefined) continue;
    answered++;
    expect(simple, `seed ${random.seed}, ${JSON.stringify(text)}`).toEqual(yamlReads(text));
  }
  // Enough answers, and enough declined, for the comparison to mean something.
  expect(answered).toBeGreaterThan(total / 10);
  expect(answered).toBeLessThan(total - total / 10);
});
