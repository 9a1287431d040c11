import { describe, expect, test } from 'vitest';
import { compareLink, detectProvider, parseRepoSlug } from '../../src/git/index.ts';

describe('detectProvider', () => {
  test.each([
    ['https://github.com/o/r.git', 'github'],
    ['git@github.com:o/r.git', 'github'],
    ['ssh://git@ssh.github.com:443/o/r.git', 'github'],
    ['https://user:tok@github.com/o/r', 'github'],
    ['https://gitlab.com/g/sub/r.git', 'gitlab'],
    ['git@gitlab.example.com:g/r.git', 'gitlab'],
    ['ssh://git@gitlab.internal:2222/g/r.git', 'gitlab'],
    ['https://bitbucket.org/o/r.git', 'other'],
    ['/srv/git/r.git', 'other'],
    ['file:///srv/git/r.git', 'other'],
    ['not a url', 'other'],
  ])('%s → %s', (url, provider) => {
    expect(detectProvider(url)).toBe(provider);
  });
});

describe('parseRepoSlug', () => {
  test.each([
    ['https://github.com/acme/shop.git', { owner: 'acme', repo: 'shop' }],
    ['https://github.com/acme/shop/', { owner: 'acme', repo: 'shop' }],
    ['git@github.com:acme/shop.git', { owner: 'acme', repo: 'shop' }],
    ['ssh://git@github.com/acme/shop', { owner: 'acme', repo: 'shop' }],
    ['https://x-access-token:t@github.example.com/acme/shop.git', { owner: 'acme', repo: 'shop' }],
    ['https://gitlab.com/g/sub/r.git', null],
    ['https://github.com/acme', null],
    ['/local/path/repo', null],
  ])('%s → %j', (url, slug) => {
    expect(parseRepoSlug(url)).toEqual(slug);
  });
});

describe('compareLink', () => {
  test.each([
    ['https://github.com/o/r.git', 'https://github.com/o/r/compare/main...keel/t1'],
    ['git@github.com:o/r.git', 'https://github.com/o/r/compare/main...keel/t1'],
    ['https://user:tok@github.com/o/r', 'https://github.com/o/r/compare/main...keel/t1'],
    ['https://gitlab.example.com/g/r.git', 'https://gitlab.example.com/g/r/-/compare/main...keel/t1'],
    ['git@gitlab.example.com:g/sub/r.git', 'https://gitlab.example.com/g/sub/r/-/compare/main...keel/t1'],
    ['ssh://git@gitlab.example.com:2222/g/r.git', 'https://gitlab.example.com/g/r/-/compare/main...keel/t1'],
    [
      'https://gitlab.example.com:8443/g/r.git',
      'https://gitlab.example.com:8443/g/r/-/compare/main...keel/t1',
    ],
    ['https://bitbucket.org/o/r.git', null],
    ['/srv/git/r.git', null],
  ])('%s → %s', (url, link) => {
    expect(compareLink(url, 'main', 'keel/t1')).toBe(link);
  });

  test('escapes characters that would break the link', () => {
    expect(compareLink('git@github.com:o/r.git', 'main', 'fix/#12?')).toBe(
      'https://github.com/o/r/compare/main...fix/%2312%3F',
    );
  });
});
