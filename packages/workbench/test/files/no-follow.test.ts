import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { entryKind, readNoFollow, readNoFollowSync, writeNoFollow } from '../../src/files/index.ts';
import { tempDir } from '../harness.ts';

const secretText = 'PRIVATE-KEY-do-not-read\n';

/** A root with a file, and a secret outside it that links point at. */
function world() {
  const outside = tempDir('no-follow-outside');
  const secret = join(outside, 'id_ed25519');
  writeFileSync(secret, secretText);
  const root = tempDir('no-follow-root');
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'a.txt'), 'own\n');
  return { root, outside, secret };
}

describe.each([
  { name: 'readNoFollow', read: readNoFollow },
  { name: 'readNoFollowSync', read: readNoFollowSync },
])('$name', ({ read }) => {
  test('reads a regular file below the root, by relative or absolute path', async () => {
    const { root } = world();
    expect(await read(root, 'src/a.txt', { maxBytes: 100 })).toEqual({ text: 'own\n' });
    expect(await read(root, join(root, 'src', 'a.txt'), { maxBytes: 100 })).toEqual({ text: 'own\n' });
    expect(await read(root, 'src/none.txt', { maxBytes: 100 })).toEqual({ why: 'missing' });
    expect(await read(root, 'none/a.txt', { maxBytes: 100 })).toEqual({ why: 'missing' });
  });

  test('a link at the file is named, never read through', async () => {
    const { root, secret } = world();
    symlinkSync(secret, join(root, 'requirements.txt'));
    expect(await read(root, 'requirements.txt', { maxBytes: 100 })).toEqual({
      why: 'link',
      at: join(root, 'requirements.txt'),
    });
  });

  test('a folder on the way that is a link is named, never walked through', async () => {
    const { root, outside } = world();
    symlinkSync(outside, join(root, 'docs'));
    mkdirSync(join(root, 'a', 'b'), { recursive: true });
    symlinkSync(outside, join(root, 'a', 'b', 'c'));
    expect(await read(root, 'docs/id_ed25519', { maxBytes: 100 })).toEqual({
      why: 'link',
      at: join(root, 'docs'),
    });
    expect(await read(root, 'a/b/c/id_ed25519', { maxBytes: 100 })).toEqual({
      why: 'link',
      at: join(root, 'a', 'b', 'c'),
    });
  });

  test('a path outside the root, a folder, a FIFO and an oversized file are refused', async () => {
    const { root, secret } = world();
    expect(await read(root, '../x', { maxBytes: 100 })).toMatchObject({ why: 'outside' });
    expect(await read(root, secret, { maxBytes: 100 })).toMatchObject({ why: 'outside' });
    expect(await read(root, 'src', { maxBytes: 100 })).toMatchObject({ why: 'not_file' });
    execFileSync('mkfifo', [join(root, 'pipe')]);
    // O_NONBLOCK: opening a FIFO with no writer must not hang the service.
    expect(await read(root, 'pipe', { maxBytes: 100 })).toMatchObject({ why: 'not_file' });
    writeFileSync(join(root, 'big.json'), 'x'.repeat(101));
    expect(await read(root, 'big.json', { maxBytes: 100 })).toMatchObject({ why: 'too_large', size: 101 });
    writeFileSync(join(root, 'file'), 'x');
    expect(await read(root, 'file/below', { maxBytes: 100 })).toMatchObject({ why: 'not_folder' });
  });
});

describe('entryKind', () => {
  test('tells files, folders and links apart without following any', async () => {
    const { root, outside, secret } = world();
    symlinkSync(secret, join(root, 'package.json'));
    symlinkSync('/', join(root, 'tests'));
    symlinkSync(outside, join(root, 'docs'));
    expect(await entryKind(root, 'src/a.txt')).toBe('file');
    expect(await entryKind(root, 'src')).toBe('folder');
    expect(await entryKind(root, 'package.json')).toBe('link');
    expect(await entryKind(root, 'tests')).toBe('link');
    expect(await entryKind(root, 'docs/id_ed25519')).toBe('link');
    expect(await entryKind(root, 'none')).toBe('missing');
  });
});

describe('writeNoFollow', () => {
  test('replaces a planted link instead of writing through it; refuses a linked folder', () => {
    const { root, outside, secret } = world();
    symlinkSync(secret, join(root, 'plan.md'));
    expect(writeNoFollow(root, join(root, 'plan.md'), '# Plan\n')).toBeUndefined();
    expect(lstatSync(join(root, 'plan.md')).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(root, 'plan.md'), 'utf8')).toBe('# Plan\n');
    expect(readFileSync(secret, 'utf8')).toBe(secretText);
    symlinkSync(outside, join(root, 'notes'));
    expect(writeNoFollow(root, 'notes/x.md', 'x')).toEqual({ why: 'link', at: join(root, 'notes') });
    expect(writeNoFollow(root, 'new/deep/x.md', 'x')).toBeUndefined();
    expect(readFileSync(join(root, 'new', 'deep', 'x.md'), 'utf8')).toBe('x');
  });
});
