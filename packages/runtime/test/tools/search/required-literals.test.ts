import { describe, expect, it } from 'vitest';
import { requiredLiterals } from '../../../src/tools/search/required-literals.ts';

describe('requiredLiterals', () => {
  it('finds the longest run of mandatory characters', () => {
    expect(requiredLiterals('TODO item 199-99')).toEqual(['TODO item 199-99']);
    expect(requiredLiterals('function\\s+\\w+Error')).toEqual(['function']);
    expect(requiredLiterals('colou?r')).toEqual(['colo']);
    expect(requiredLiterals('ab+c')).toEqual(['ab']);
    expect(requiredLiterals('a\\.b\\(c\\)')).toEqual(['a.b(c)']);
    expect(requiredLiterals('^import \\{ x \\}$')).toEqual(['import { x }']);
    expect(requiredLiterals('\\bneedle\\b')).toEqual(['needle']);
    expect(requiredLiterals('x{2}yz')).toEqual(['yz']);
  });

  it('gives one literal per alternative, or none when an alternative has none', () => {
    expect(requiredLiterals('(get|set)User')).toEqual(['User']);
    expect(requiredLiterals('(getter|setter)Us')).toEqual(['getter', 'setter']);
    expect(requiredLiterals('foo|bar|foo')).toEqual(['foo', 'bar']);
    expect(requiredLiterals('foo|\\d+')).toBeUndefined();
    expect(requiredLiterals('foo|')).toBeUndefined();
    expect(requiredLiterals('(?:abc|de)+x')).toEqual(['abc', 'de']);
    expect(requiredLiterals('(abc)?x')).toEqual(['x']);
  });

  it('gives none for patterns without literal text', () => {
    for (const pattern of ['\\d+', '.*', '[a-z]+', '\\w\\s\\w', '(?:a|b)?', '']) {
      expect(requiredLiterals(pattern)).toBeUndefined();
    }
  });

  it('never reads an escape, class, modifier or lookaround as literal text', () => {
    expect(requiredLiterals('\\x41BC')).toEqual(['BC']);
    expect(requiredLiterals('\\u0041BC')).toEqual(['BC']);
    expect(requiredLiterals('\\cJfoo')).toEqual(['foo']);
    expect(requiredLiterals('\\012ab')).toEqual(['ab']);
    expect(requiredLiterals('(a)\\1xyz')).toEqual(['xyz']);
    expect(requiredLiterals('(?<n>ab)\\k<n>cd')).toEqual(['ab']);
    expect(requiredLiterals('[abc]]xy')).toEqual(['xy']);
    expect(requiredLiterals('[]]abc')).toEqual(['abc']);
    expect(requiredLiterals('(?=look)ahead')).toEqual(['ahead']);
    expect(requiredLiterals('(?<!no)yes')).toEqual(['yes']);
    expect(requiredLiterals('(?i:Case)x')).toEqual(['x']);
    expect(requiredLiterals('(?i:Case)')).toBeUndefined();
    expect(requiredLiterals('a{,2}bcd')).toEqual(['bcd']); // Annex B: {,2} is literal text
    expect(requiredLiterals('😀x')).toEqual(['x']);
    expect(requiredLiterals('a\nb')).toEqual(['a']);
  });

  it('is sound: every line a pattern matches contains one of its literals', () => {
    const patterns = [
      'colou?r',
      '(get|set)User',
      'ab+c',
      'x{2}yz',
      '\\x41BC',
      '\\cJfoo',
      '(?:abc|de)+x',
      '\\bnee\\w+e\\b',
      '(?i)ÉCOLE',
      'a.b',
      '\\p{L}',
      '\\u{2}',
      '(a)\\1xyz',
      'é(?=t)té',
    ];
    const lines = [
      'color',
      'colour',
      'getUser',
      'setUser',
      'abbbc',
      'xxyz',
      'ABC',
      '\nfoo',
      'abcdedex',
      'needle',
      'école',
      'a-b',
      'p{L}',
      'uu',
      'aaxyz',
      'été',
    ];
    for (const pattern of patterns) {
      const ignoreCase = pattern.startsWith('(?i)');
      const source = ignoreCase ? pattern.slice(4) : pattern;
      const regex = new RegExp(source, ignoreCase ? 'i' : '');
      const literals = requiredLiterals(source);
      if (!literals) continue;
      for (const line of lines.filter((each) => regex.test(each))) {
        const fold = (text: string) => (ignoreCase ? text.toLowerCase() : text);
        expect({
          pattern,
          line,
          found: literals.some((literal) => fold(line).includes(fold(literal))),
        }).toEqual({
          pattern,
          line,
          found: true,
        });
      }
    }
  });
});
